"""What the editor is told after each step of a post's life: in the post's words ("post", never
"Page"), and what readers see afterwards."""

import pytest
from wagtail.test.utils.form_data import nested_form_data, rich_text, streamfield

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.models import BlogPage
from tests.factories import draft_post, publish_post

from .scheduling import edit_form_data, edit_url, make_user
from .test_admin_scheduling import told
from .test_editor_form import add_url, post_form

pytestmark = pytest.mark.django_db


def said(response):
    messages = told(response)
    assert not any("Page" in message or "page" in message for message in messages), messages
    return messages


@pytest.fixture
def publisher_client(client):
    client.force_login(make_user("pat", group=PUBLISHERS))
    return client


def test_a_new_post_saved_as_a_draft_says_readers_do_not_see_it(publisher_client, blog):
    response = publisher_client.post(add_url(blog), post_form(), follow=True)
    assert said(response) == [
        "“Why our GPUs ran hot” saved as a draft. Readers don't see it until it is published."
    ]


def test_a_new_post_published_says_where_readers_see_it(
    publisher_client, blog, author, topic, hero_image
):
    form = post_form(author=author, topic=topic, image=hero_image, publish=True)
    response = publisher_client.post(add_url(blog), form, follow=True)
    assert said(response) == [
        "“Why our GPUs ran hot” is published. Readers see it at /blog/why-our-gpus-ran-hot/. Edit"
    ]


def test_a_draft_of_a_live_post_says_readers_still_see_the_published_version(
    publisher_client, blog, author, topic
):
    post = publish_post(blog, "Cooling notes", authors=[author], topics=[topic])
    data = edit_form_data(publisher_client, post, title="Cooling notes, revised")
    response = publisher_client.post(edit_url(post), data, follow=True)
    assert said(response) == [
        "Draft of “Cooling notes, revised” saved. Readers still see the published version at "
        "/blog/cooling-notes/."
    ]


def test_publishing_an_edit_says_where_readers_see_it(publisher_client, blog, author, topic):
    post = publish_post(blog, "Cooling notes", authors=[author], topics=[topic])
    data = edit_form_data(publisher_client, post, **{"action-publish": "action-publish"})
    response = publisher_client.post(edit_url(post), data, follow=True)
    assert said(response) == [
        "“Cooling notes” is published. Readers see it at /blog/cooling-notes/. Edit"
    ]


def test_submitting_approving_and_requesting_changes_say_what_readers_see(
    client, blog, author, topic
):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("eddie", group=EDITORS))
    submit = edit_form_data(client, post, **{"action-submit": "action-submit"})
    assert said(client.post(edit_url(post), submit, follow=True)) == [
        "“Launch notes” is submitted for review. Readers don't see it until it is approved. Edit"
    ]

    client.force_login(make_user("kenji", group=PUBLISHERS))
    reject = edit_form_data(client, post, **{"action-workflow-action": "true"})
    reject["workflow-action-name"] = "reject"
    assert said(client.post(edit_url(post), reject, follow=True)) == [
        "Changes requested on “Launch notes”: it is a draft again. Readers don't see it until "
        "it is published. Edit"
    ]

    client.force_login(make_user("eddie2", group=EDITORS))
    resubmit = edit_form_data(client, post, **{"action-submit": "action-submit"})
    client.post(edit_url(post), resubmit)
    client.force_login(make_user("kenji2", group=PUBLISHERS))
    approve = edit_form_data(client, post, **{"action-workflow-action": "true"})
    approve["workflow-action-name"] = "approve"
    assert said(client.post(edit_url(post), approve, follow=True)) == [
        "“Launch notes” is approved and published. Readers see it at /blog/launch-notes/. Edit"
    ]


def test_unpublishing_says_readers_no_longer_see_the_post(publisher_client, blog, author, topic):
    post = publish_post(blog, "Cooling notes", authors=[author], topics=[topic])
    response = publisher_client.post(f"/admin/pages/{post.pk}/unpublish/", follow=True)
    assert said(response) == [
        "“Cooling notes” is unpublished: readers no longer see it, and /blog/cooling-notes/ "
        "answers “not found”. It is kept as a draft. Edit"
    ]
    assert not BlogPage.objects.get(pk=post.pk).live


def test_deleting_says_readers_no_longer_see_the_post(admin_client, blog, author, topic):
    post = publish_post(blog, "Cooling notes", authors=[author], topics=[topic])
    response = admin_client.post(f"/admin/pages/{post.pk}/delete/", follow=True)
    assert said(response) == ["“Cooling notes” is deleted. Readers no longer see it."]


def test_saving_a_live_post_without_a_change_says_nothing_changed_for_readers(
    publisher_client, blog, author, topic
):
    post = publish_post(blog, "Cooling notes", authors=[author], topics=[topic])
    # The editor's JavaScript keeps the names of blocks and paragraphs from one save to the next.
    body = streamfield([("paragraph", rich_text('<p data-block-key="k1">Same words.</p>'))])
    fixed = {
        **nested_form_data({"body": body}),
        "body-0-id": "5d0c1d0e-0000-4000-8000-000000000001",
    }
    publish = edit_form_data(publisher_client, post, **fixed, **{"action-publish": "1"})
    publisher_client.post(edit_url(post), publish)

    data = edit_form_data(publisher_client, post, **fixed)
    response = publisher_client.post(edit_url(post), data, follow=True)

    assert said(response) == [
        "No changes to save in “Cooling notes”. Readers see it at /blog/cooling-notes/."
    ]
    assert not BlogPage.objects.get(pk=post.pk).has_unpublished_changes


def test_cancelling_a_review_says_the_post_is_a_draft_again(admin_client, blog, author, topic):
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    submit = edit_form_data(admin_client, post, **{"action-submit": "1"})
    admin_client.post(edit_url(post), submit)
    cancel = edit_form_data(admin_client, post, **{"action-cancel-workflow": "1"})
    assert said(admin_client.post(edit_url(post), cancel, follow=True)) == [
        "Review of “Launch notes” cancelled: it is a draft again. Readers don't see it until "
        "it is published. Edit"
    ]
