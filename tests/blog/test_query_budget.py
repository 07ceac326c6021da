"""Reader pages cost a fixed number of queries, however many posts the blog holds."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from wagtail.models import Workflow

from tests.factories import draft_post, make_image, publish_post, publish_posts

pytestmark = pytest.mark.django_db

INDEX_BUDGET = 10
TOPIC_BUDGET = 10
POST_BUDGET = 12
FEED_BUDGET = 6


def queries_for(client, url):
    client.get(url)  # the first request warms Wagtail's site root paths and renditions
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


@pytest.fixture
def busy_blog(blog, author, topic):
    image = make_image("shared hero")
    posts = publish_posts(blog, 15, authors=[author], topics=[topic], image=image)
    publish_post(blog, "The featured one", featured=True, authors=[author], topics=[topic])
    return posts


def add_posts(blog, author, topic, count=20):
    image = make_image("more heroes")
    for n in range(count):
        publish_post(blog, f"Later post {n}", authors=[author], topics=[topic], image=image)


@pytest.mark.parametrize(
    ("url", "budget"),
    [("/blog/", INDEX_BUDGET), ("/blog/?page=2", INDEX_BUDGET), ("/blog/topic/", TOPIC_BUDGET)],
)
def test_a_listing_stays_within_its_budget_as_the_blog_grows(
    client, busy_blog, blog, author, topic, url, budget
):
    url = url.replace("/topic/", f"/topic/{topic.slug}/")
    before = queries_for(client, url)
    assert before <= budget
    add_posts(blog, author, topic)
    assert queries_for(client, url) == before


def test_a_post_stays_within_its_budget_as_the_blog_grows(client, busy_blog, blog, author, topic):
    post = busy_blog[0]
    before = queries_for(client, post.url)
    assert before <= POST_BUDGET
    add_posts(blog, author, topic)
    assert queries_for(client, post.url) == before


def test_the_home_page_does_not_grow_with_the_blog(client, busy_blog, blog, author, topic):
    before = queries_for(client, "/")
    add_posts(blog, author, topic)
    assert queries_for(client, "/") == before


@pytest.mark.parametrize(
    "url", ["/blog/feed/", "/blog/atom/", "/blog/topic/{topic}/feed/", "/blog/topic/{topic}/atom/"]
)
def test_a_feed_stays_within_its_budget_as_the_blog_grows(
    client, busy_blog, blog, author, topic, url
):
    url = url.format(topic=topic.slug)
    before = queries_for(client, url)
    assert before <= FEED_BUDGET
    add_posts(blog, author, topic)
    assert queries_for(client, url) == before


@pytest.mark.parametrize("url", ["/admin/pages/{blog}/", "/admin/pages/search/?q=Post"])
def test_the_admin_page_explorer_does_not_grow_with_the_blog(
    client, admin_user, busy_blog, blog, author, topic, url
):
    client.force_login(admin_user)
    url = url.format(blog=blog.pk)
    before = queries_for(client, url)
    add_posts(blog, author, topic)
    assert queries_for(client, url) == before


def posts_in_every_state(blog, author, topic, owner, count):
    """`count` posts cycling through the states the explorer shows differently: draft, in
    review, scheduled, live, and live with unpublished changes, each owned by its own user."""
    workflow = Workflow.objects.get(name="Moderators approval")
    for n in range(count):
        user = User.objects.create_user(f"writer{owner}-{n}")
        post = draft_post(blog, f"Post {owner}-{n}", authors=[author], topics=[topic], owner=user)
        match n % 5:
            case 1:
                workflow.start(post, user)
            case 2:
                post.go_live_at = timezone.now() + timedelta(days=3)
                post.save_revision(user=user).publish()
            case 3:
                post.save_revision(user=user).publish()
            case 4:
                post.save_revision(user=user).publish()
                post.title += " (edited)"
                post.save_revision(user=user)


@pytest.mark.parametrize("user", ["admin", "editor"])
@pytest.mark.parametrize("url", ["/admin/pages/{blog}/", "/admin/blog/blogpage/"])
def test_the_explorer_and_posts_overview_cost_the_same_for_5_or_25_posts_in_any_state(
    user, url, admin_client, editor_client, blog, author, topic
):
    client = admin_client if user == "admin" else editor_client
    url = url.format(blog=blog.pk)
    posts_in_every_state(blog, author, topic, "a", 5)
    few = queries_for(client, url)
    posts_in_every_state(blog, author, topic, "b", 20)
    assert queries_for(client, url) == few
