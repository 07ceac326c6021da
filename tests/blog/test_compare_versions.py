"""History compares any two versions of a post, as WordPress's revisions screen does."""

import re

import pytest
from bs4 import BeautifulSoup
from django.test import Client

from blog.editorial.roles import EDITORS
from tests.factories import draft_post

from .scheduling import edit_url, make_user
from .test_autosave import AUTOSAVE, edit_form_data

pytestmark = pytest.mark.django_db


def history_url(page):
    return f"/admin/pages/{page.pk}/history/"


def compare_url(page):
    return f"/admin/blog/posts/{page.pk}/compare/"


def save_version(post, user, **changes):
    for name, value in changes.items():
        setattr(post, name, value)
    post.save_revision(user=user, log_action=True)


def paragraph(text):
    return [{"type": "paragraph", "value": f"<p>{text}</p>"}]


@pytest.fixture
def editor_user(db):
    return make_user("ada", group=EDITORS)


@pytest.fixture
def editors_client(editor_user):
    client = Client()
    client.force_login(editor_user)
    return client


@pytest.fixture
def three_versions(blog, editor_user):
    """First: the original. Second: a new title. Third: a new body."""
    post = draft_post(blog, "Why our GPUs ran hot", body=paragraph("It started with a fan."))
    post.revisions.update(user=editor_user)
    save_version(post, editor_user, title="Why our GPUs ran hotter")
    save_version(post, editor_user, body=paragraph("It started with a pump."))
    return post


def compare_form(response):
    page = BeautifulSoup(response.content, "html.parser")
    return page.select_one("form.compare-versions")


def options(form, name):
    return [
        (option["value"], option.get_text(" ", strip=True))
        for option in form.select(f'select[name="{name}"] option')
    ]


def changes_shown(response):
    """(what was added, what was taken out), as Wagtail's comparison marks them."""
    table = BeautifulSoup(response.content, "html.parser").select_one("table.listing")
    return tuple(
        " ".join(node.get_text(" ", strip=True) for node in table.select(kind))
        for kind in (".addition", ".deletion")
    )


def test_history_compares_the_first_and_third_versions(editors_client, three_versions):
    history = editors_client.get(history_url(three_versions))
    form = compare_form(history)
    assert form is not None, "History offers no way to choose two versions"
    newest_first = options(form, "older")
    assert len(newest_first) == 3
    assert all("Draft saved" in label and "ada" in label for _, label in newest_first)
    assert "current draft" in newest_first[0][1]
    first, third = newest_first[-1][0], newest_first[0][0]

    chosen = editors_client.get(form["action"], {"older": first, "newer": third}, follow=True)

    assert chosen.status_code == 200
    assert chosen.redirect_chain[-1][0].endswith(f"/compare/{first}...{third}/")
    said = BeautifulSoup(chosen.content, "html.parser").select_one(".compared-versions")
    assert said.get_text(" ", strip=True) == f"From {newest_first[-1][1]} to {newest_first[0][1]}"
    added, taken_out = changes_shown(chosen)
    assert "hotter" in added  # the second version's new title
    assert "pump" in added and "fan" in taken_out  # the third version's new body


def test_versions_chosen_newest_first_are_compared_oldest_first(editors_client, three_versions):
    first, third = three_versions.revisions.order_by("created_at", "pk")[::2]
    chosen = editors_client.get(compare_url(three_versions), {"older": third.pk, "newer": first.pk})
    assert chosen.url.endswith(f"/compare/{first.pk}...{third.pk}/")


def test_a_post_with_one_version_offers_nothing_to_compare(editors_client, blog):
    post = draft_post(blog, "Only once")
    assert compare_form(editors_client.get(history_url(post))) is None


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ({"older": "x", "newer": "x"}, "not a version of this post"),
        ({"older": "1" * 20, "newer": "-1"}, "not a version of this post"),
        ({"newer": "latest"}, "This field is required"),
        ({"older": "", "newer": ""}, "This field is required"),
    ],
)
def test_odd_choices_are_a_readable_400(editors_client, three_versions, asked, said):
    answer = editors_client.get(compare_url(three_versions), asked)
    assert answer.status_code == 400
    assert said in answer.content.decode()


def test_a_version_of_another_post_is_refused(editors_client, three_versions, blog):
    other = draft_post(blog, "Another post")
    mine = three_versions.latest_revision_id
    answer = editors_client.get(
        compare_url(three_versions), {"older": other.latest_revision_id, "newer": mine}
    )
    assert answer.status_code == 400
    assert "not a version of this post" in answer.content.decode()
    # Wagtail's own comparison, asked directly, does not show it either.
    url = f"/admin/pages/{three_versions.pk}/revisions/compare/{other.latest_revision_id}...{mine}/"
    assert editors_client.get(url).status_code == 404


def test_the_same_version_twice_is_a_readable_400(editors_client, three_versions):
    mine = three_versions.latest_revision_id
    answer = editors_client.get(compare_url(three_versions), {"older": mine, "newer": mine})
    assert answer.status_code == 400
    assert "Choose two different versions" in answer.content.decode()


def test_no_post_there_is_a_404(editors_client):
    assert editors_client.get("/admin/blog/posts/999999/compare/").status_code == 404


def test_only_those_who_may_edit_the_page_compare_its_versions(editors_client, home):
    home.save_revision(log_action=True)
    home.save_revision(log_action=True)
    first, second = home.revisions.order_by("created_at", "pk")[:2]
    answer = editors_client.get(compare_url(home), {"older": first.pk, "newer": second.pk})
    # Wagtail's answer to a right the user lacks: back to the dashboard, with a message.
    assert answer.status_code == 302
    assert answer["Location"] == "/admin/"


def test_an_address_out_of_any_range_is_a_404(editors_client):
    assert editors_client.get(f"/admin/blog/posts/{'9' * 20}/compare/").status_code == 404


def compare_with_previous(client, post):
    """What the newest History row's "Compare with previous version" shows."""
    history = BeautifulSoup(client.get(history_url(post)).content, "html.parser")
    link = history.find("a", string=re.compile("Compare with previous version"))
    return changes_shown(client.get(link["href"]))


def test_save_draft_after_autosaves_compares_with_the_version_before_the_session(
    editor_client, blog
):
    post = draft_post(blog, "Why our GPUs ran hot")
    data = edit_form_data(editor_client, post, title="Why our GPUs ran hotter")
    autosaved = editor_client.post(edit_url(post), data, **AUTOSAVE).json()
    # Typed after the last autosave, then Save draft (autosave-guard.js names the version).
    data.update(summary="The pump, not the fan, was the fault.")
    data["autosaved_revision_id"] = autosaved["revision_id"]

    assert editor_client.post(edit_url(post), data).status_code == 302

    added, _taken_out = compare_with_previous(editor_client, post)
    assert "hotter" in added and "pump" in added
    assert post.revisions.count() == 2  # the one written, and this session's


def test_save_draft_naming_a_version_that_is_not_the_latest_saves_a_new_one(editor_client, blog):
    post = draft_post(blog, "Why our GPUs ran hot")
    data = edit_form_data(editor_client, post, title="Why our GPUs ran hotter")
    editor_client.post(edit_url(post), data, **AUTOSAVE)
    # Another window's Save draft: its autosave wrote the first version, not the latest.
    data.update(summary="The pump, not the fan, was the fault.")
    data["autosaved_revision_id"] = post.revisions.order_by("pk").first().pk

    assert editor_client.post(edit_url(post), data).status_code == 302

    assert post.revisions.count() == 3


def test_each_version_says_what_was_done_with_it(editors_client, three_versions, admin_user):
    three_versions.get_latest_revision().publish(user=admin_user)
    form = compare_form(editors_client.get(history_url(three_versions)))
    labels = [label for _, label in options(form, "newer")]
    assert labels[0].startswith("Published (live) · ")
    assert labels[1].startswith("Draft saved · ")


def test_publish_after_autosaves_publishes_the_sessions_version(editor_client, blog, author, topic):
    post = draft_post(blog, "Why our GPUs ran hot", authors=[author], topics=[topic])
    data = edit_form_data(editor_client, post, title="Why our GPUs ran hotter")
    autosaved = editor_client.post(edit_url(post), data, **AUTOSAVE).json()
    data.update(summary="The pump, not the fan, was the fault.")
    data["autosaved_revision_id"] = autosaved["revision_id"]
    data["action-publish"] = "action-publish"

    assert editor_client.post(edit_url(post), data).status_code == 302

    post.refresh_from_db()
    assert post.live and post.summary == "The pump, not the fan, was the fault."
    assert post.live_revision_id == autosaved["revision_id"]
    assert post.revisions.count() == 2


def test_a_published_autosaved_version_is_not_rewritten(editor_client, blog):
    post = draft_post(blog, "Why our GPUs ran hot")
    data = edit_form_data(editor_client, post, title="Why our GPUs ran hotter")
    autosaved = editor_client.post(edit_url(post), data, **AUTOSAVE).json()
    post.revisions.get(pk=autosaved["revision_id"]).publish()  # from another window
    data.update(summary="The pump, not the fan, was the fault.")
    data["autosaved_revision_id"] = autosaved["revision_id"]

    assert editor_client.post(edit_url(post), data).status_code == 302

    published = post.revisions.get(pk=autosaved["revision_id"]).as_object()
    assert published.summary == "A summary of Why our GPUs ran hot."
    assert post.revisions.count() == 3
