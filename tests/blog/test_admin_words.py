"""The admin names things with the editor's words: a post is a "post", the site is the blog."""

import ast
import json
import re

import pytest
from bs4 import BeautifulSoup
from django.utils import translation
from django.utils.translation import gettext

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.models import BlogIndexPage, BlogPage
from tests.factories import draft_post

from .scheduling import edit_form_data, edit_url, make_user
from .test_editor_form import add_url, post_form

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(BeautifulSoup(response.content, "html.parser").get_text(" ").split())


def test_the_posts_list_and_its_button_speak_of_posts(client, demo_site):
    client.force_login(make_user("eddie", group=EDITORS))
    listing = text_of(client.get("/admin/blog/blogpage/"))
    assert "Add post" in listing
    assert "blog page" not in listing.lower()


def test_the_dashboard_greets_editors_with_the_blogs_name(client, demo_site, settings):
    client.force_login(make_user("eddie", group=EDITORS))
    response = client.get("/admin/")
    heading = BeautifulSoup(response.content, "html.parser").select_one("h1")
    assert heading.get_text(strip=True) == settings.WAGTAIL_SITE_NAME
    assert "localhost" not in text_of(response)


def test_the_post_editor_asks_for_the_post_title(client, demo_site):
    client.force_login(make_user("eddie", group=EDITORS))
    blog = BlogIndexPage.objects.get()
    page = BeautifulSoup(
        client.get(f"/admin/pages/add/blog/blogpage/{blog.pk}/").content, "html.parser"
    )
    assert page.select_one("#id_title")["placeholder"] == "Post title*"


def test_unpublishing_a_post_asks_about_the_post_and_what_readers_will_see(admin_client, demo_site):
    post = BlogPage.objects.live().first()
    confirm = text_of(admin_client.get(f"/admin/pages/{post.pk}/unpublish/"))
    assert "Unpublish this post? Readers will no longer see it" in confirm
    assert "this page" not in confirm


def banners(response):
    """The admin's message banners, as the editor reads them."""
    page = BeautifulSoup(response.content, "html.parser")
    return [" ".join(item.get_text(" ").split()) for item in page.select(".messages li")]


def test_a_refused_first_save_says_the_post_could_not_be_saved(client, blog):
    client.force_login(make_user("eddie", group=EDITORS))
    response = client.post(add_url(blog), post_form(title=""))
    assert banners(response) == [
        "The post could not be saved. Fix the errors shown, then save again. Go to the first error"
    ]


def test_a_refused_save_of_a_post_says_the_post_could_not_be_saved(client, blog):
    client.force_login(make_user("eddie", group=EDITORS))
    post = draft_post(blog, "Launch notes")
    response = client.post(edit_url(post), edit_form_data(client, post, title=""))
    assert banners(response) == [
        "The post could not be saved. Fix the errors shown, then save again. Go to the first error"
    ]


def test_deleting_a_post_asks_about_the_post(admin_client, blog):
    post = draft_post(blog, "Launch notes")
    confirm = text_of(admin_client.get(f"/admin/pages/{post.pk}/delete/"))
    assert "Delete this post? It cannot be brought back" in confirm
    assert "this page" not in confirm


def test_cancelling_a_review_with_errors_in_the_form_speaks_of_review(client, blog, author, topic):
    """Wagtail cancels the review although the form is refused, and runs no hook then."""
    client.force_login(make_user("eddie", group=EDITORS))
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.post(edit_url(post), edit_form_data(client, post, **{"action-submit": "1"}))
    cancel = edit_form_data(client, post, title="", **{"action-cancel-workflow": "1"})
    response = client.post(edit_url(post), cancel)
    assert banners(response) == [
        "Review of “Launch notes” cancelled: it is a draft again. View draft Edit"
    ]
    assert not BlogPage.objects.get(pk=post.pk).workflow_in_progress


def test_the_publisher_approves_and_publishes_in_lower_case(client, blog, author, topic):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("eddie", group=EDITORS))
    client.post(edit_url(post), edit_form_data(client, post, **{"action-submit": "1"}))
    client.force_login(make_user("kenji", group=PUBLISHERS))
    review = BeautifulSoup(client.get(edit_url(post)).content, "html.parser")
    approve = review.find("button", attrs={"data-workflow-action-name": "approve"})
    assert approve.get_text(strip=True) == "Approve and publish"


def test_a_post_in_review_says_who_may_edit_it_now(client, blog, author, topic):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("eddie", group=EDITORS))
    client.post(edit_url(post), edit_form_data(client, post, **{"action-submit": "1"}))
    editor_sees = text_of(client.get(edit_url(post)))
    assert (
        "This post is waiting for a Publisher’s review. Until the review ends, only a Publisher "
        "can edit it." in editor_sees
    )
    assert "moderation" not in editor_sees
    client.force_login(make_user("kenji", group=PUBLISHERS))
    review = BeautifulSoup(client.get(edit_url(post)).content, "html.parser")
    cancel = review.find("button", attrs={"name": "action-cancel-workflow"})
    assert cancel.get_text(strip=True) == "Cancel review"


def catalogue_entries(source):
    """(msgid, msgstr) of each entry of a .po file but its header."""
    entries, key = [], None
    fields = {}
    for line in [*source.splitlines(), ""]:
        if line.startswith(("msgid ", "msgstr ")):
            key, _, line = line.partition(" ")
            fields[key] = ""
        if line.startswith('"'):
            fields[key] += ast.literal_eval(line)
        elif not line.strip() and fields.get("msgid"):
            entries.append((fields["msgid"], fields["msgstr"]))
            fields = {}
    return entries


def test_the_committed_catalogue_is_compiled_from_its_source(settings):
    """Every sentence in config/locale/en/LC_MESSAGES/django.po is what the admin says: a .po edited
    without `make messages` fails here."""
    source = (settings.BASE_DIR / "config/locale/en/LC_MESSAGES/django.po").read_text()
    entries = catalogue_entries(source)
    # Every entry was read (the header, msgid "", is not one).
    assert len(entries) == source.count('\nmsgid "') - 1 > 0
    with translation.override("en-us"):
        for msgid, msgstr in entries:
            assert gettext(msgid) == msgstr


def menu_labels(response):
    """The labels of the admin sidebar's menu, which Wagtail sends as JSON for its script."""
    props = BeautifulSoup(response.content, "html.parser").select_one("#wagtail-sidebar-props")
    labels = []

    def collect(value):
        if isinstance(value, dict):
            if isinstance(value.get("label"), str):
                labels.append(value["label"])
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    collect(json.loads(props.string))
    return labels


@pytest.mark.parametrize("group", [EDITORS, PUBLISHERS])
def test_editors_and_publishers_find_posts_in_the_menu_and_no_page_tree(client, blog, group):
    client.force_login(make_user("eddie", group=group))
    labels = menu_labels(client.get("/admin/"))
    assert "Posts" in labels
    assert "Pages" not in labels


def test_a_superuser_keeps_the_page_tree_for_the_home_and_blog_pages(admin_client, blog):
    labels = menu_labels(admin_client.get("/admin/"))
    assert "Pages" in labels
    assert "Posts" in labels


def test_the_dashboard_counts_and_searches_posts(client, blog, author, topic):
    for number in range(2):
        draft_post(blog, f"Post {number}", authors=[author], topics=[topic])
    client.force_login(make_user("eddie", group=EDITORS))
    dashboard = client.get("/admin/")
    page = BeautifulSoup(dashboard.content, "html.parser")
    summary = page.select_one(".w-summary")
    assert "2 Posts" in " ".join(summary.get_text(" ").split())
    assert summary.find("a", string=re.compile("2 Posts"))["href"] == "/admin/blog/blogpage/"
    assert page.select_one("input[name=q]")["placeholder"] == "Search all posts…"
    assert "page" not in text_of(dashboard).lower()


def test_the_dashboard_lists_an_editors_posts_in_review_as_posts(client, blog, author, topic):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("eddie", group=EDITORS))
    client.post(edit_url(post), edit_form_data(client, post, **{"action-submit": "1"}))
    dashboard = text_of(client.get("/admin/"))
    assert "Your posts in review" in dashboard
    assert "page" not in dashboard.lower()


def test_the_status_panel_says_anyone_can_edit_this_post(client, blog, author, topic):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("kenji", group=PUBLISHERS))
    status = text_of(client.get(edit_url(post)))
    assert "Anyone can edit this post" in status
    assert "edit this page" not in status


def landed_on(response):
    return response.redirect_chain[-1][0]


def test_submitting_a_post_for_review_ends_on_the_posts_list(client, blog, author, topic):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("eddie", group=EDITORS))
    submit = edit_form_data(client, post, **{"action-submit": "1"})
    assert landed_on(client.post(edit_url(post), submit, follow=True)) == "/admin/blog/blogpage/"


def test_saving_a_draft_keeps_the_editor_open(client, blog, author, topic):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("eddie", group=EDITORS))
    saved = client.post(edit_url(post), edit_form_data(client, post), follow=True)
    assert landed_on(saved) == edit_url(post)


def test_publishing_a_post_ends_on_the_posts_list(client, blog, author, topic):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("kenji", group=PUBLISHERS))
    publish = edit_form_data(client, post, **{"action-publish": "1"})
    assert landed_on(client.post(edit_url(post), publish, follow=True)) == "/admin/blog/blogpage/"


def test_submitting_a_new_post_ends_on_the_posts_list_and_saving_it_stays(
    client, blog, author, topic
):
    client.force_login(make_user("eddie", group=EDITORS))
    saved = client.post(add_url(blog), post_form(author, topic), follow=True)
    post = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    assert landed_on(saved) == edit_url(post)
    submitted = client.post(
        add_url(blog),
        post_form(author, topic, slug="second-post", **{"action-submit": "1"}),
        follow=True,
    )
    assert landed_on(submitted) == "/admin/blog/blogpage/"


def test_a_way_back_named_by_next_still_wins(client, blog, author, topic):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("eddie", group=EDITORS))
    submit = edit_form_data(client, post, **{"action-submit": "1"})
    submit["next"] = "/admin/calendar/"
    assert landed_on(client.post(edit_url(post), submit, follow=True)) == "/admin/calendar/"
