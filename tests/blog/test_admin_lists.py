"""Admin lists answer only to the filters and searches they show, and list only what the user
may work on.

A probe found that the Posts list turned any query parameter into a database lookup, so a URL
could ask yes/no questions about users' password hashes and pages' view-restriction passwords.
These tests walk every list the admin menu offers, as an attacker would."""

import re
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth.models import Group, Permission
from django.core.files.base import ContentFile
from django.db import connection
from django.db.models import Q
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from wagtail.admin.menu import admin_menu
from wagtail.documents.models import Document
from wagtail.images.models import Image
from wagtail.models import PageViewRestriction

from blog.editorial.overview import editorial_posts
from blog.editorial.posts_admin import PostsAdmin
from blog.editorial.roles import EDITORS
from blog.models import Author, BlogPage, Topic
from tests.factories import draft_post, publish_post

from .scheduling import make_user

pytestmark = pytest.mark.django_db

POSTS_URL = "/admin/blog/blogpage/"

# Lookups a list never offers, across the relations an attacker would aim at. Each would empty
# a list that applied it, since no stored value starts with "zzz" and no id is that large.
UNDECLARED_LOOKUPS = {
    "owner__password__startswith": "zzz",
    "owner__username": "zzz",
    "uploaded_by_user__password__startswith": "zzz",
    "user__password__startswith": "zzz",
    "created_by__password__startswith": "zzz",
    "view_restrictions__password__startswith": "zzz",
    "page__owner__password__regex": "^zzz",
    "title__startswith": "zzz",
    "id__gt": "999999999",
    "pk__in": "0",
}
BAD_VALUES = ["\x00", "x", "99999999999999999999999"]
NUMBERED_ADMIN_LINK = re.compile(r'href="(/admin/[^"?#]*/\d+/[^"?#]*)')


def listed_links(response):
    """The links to single objects a list shows: its rows, whatever the list's markup."""
    return set(NUMBERED_ADMIN_LINK.findall(response.content.decode()))


def menu_urls(user):
    """Every screen the admin menu offers this user, submenus included."""
    request = RequestFactory().get("/admin/")
    request.user = user
    urls, items = [], list(admin_menu.menu_items_for_request(request))
    while items:
        item = items.pop()
        if getattr(item, "menu", None) is not None:
            items.extend(item.menu.menu_items_for_request(request))
        elif item.url.startswith("/admin/"):
            urls.append(item.url)
    return sorted(set(urls))


def parameters_offered(response):
    """The query parameters a screen's own links and GET forms use: its declared filters."""
    page = BeautifulSoup(response.content, "html.parser")
    names = set()
    for link in page.select("a[href*='?']"):
        names.update(name for name, _ in parse_qsl(urlsplit(link["href"]).query))
    for form in page.select("form"):
        if form.get("method", "get").lower() == "get":
            names.update(field["name"] for field in form.select("[name]"))
    return names | {"q", "p", "o", "ordering", "page"}


@pytest.fixture
def newsroom(demo_site, admin_user):
    """The demo blog, with posts, pictures, a document and authors all tied to a user, and a
    private post behind a page password."""
    BlogPage.objects.update(owner=admin_user)
    Image.objects.update(uploaded_by_user=admin_user)
    Author.objects.update(user=None)
    Author.objects.filter(pk=Author.objects.first().pk).update(user=admin_user)
    Document.objects.create(
        title="Style guide",
        file=ContentFile(b"%PDF-1.4 style guide", name="style-guide.pdf"),
        uploaded_by_user=admin_user,
    )
    secret = BlogPage.objects.live().first()
    PageViewRestriction.objects.create(
        page=secret, restriction_type=PageViewRestriction.PASSWORD, password="hunter2"
    )
    return demo_site


@pytest.fixture
def editor(db):
    return make_user("eddie", group=EDITORS)


def test_the_admin_menu_offers_the_projects_lists(newsroom, admin_user):
    urls = menu_urls(admin_user)
    for expected in (POSTS_URL, "/admin/calendar/", "/admin/snippets/blog/topic/"):
        assert expected in urls


def test_undeclared_lookups_never_change_what_any_admin_list_shows(client, newsroom, admin_user):
    client.force_login(admin_user)
    share_links = f"/admin/blog/posts/{BlogPage.objects.first().pk}/share-links/"
    for url in [*menu_urls(admin_user), share_links]:
        # Every screen opens; the site settings by way of a redirect to the one site's form.
        plain = client.get(url, follow=True)
        assert plain.status_code == 200, (url, plain.status_code)
        for lookup, value in UNDECLARED_LOOKUPS.items():
            probed = client.get(url, {lookup: value}, follow=True)
            assert probed.status_code in (200, 400), (url, lookup, probed.status_code)
            if probed.status_code == 200:
                assert listed_links(probed) == listed_links(plain), (url, lookup)


def test_bad_values_in_any_admin_list_get_an_answer_not_a_server_error(
    client, newsroom, admin_user
):
    client.force_login(admin_user)
    for url in menu_urls(admin_user):
        plain = client.get(url, follow=True)
        assert plain.status_code == 200, (url, plain.status_code)
        screen = plain.redirect_chain[-1][0] if plain.redirect_chain else url
        for name in parameters_offered(plain):
            for value in BAD_VALUES:
                response = client.get(f"{screen}?{urlencode({name: value})}")
                assert response.status_code < 500, (url, name, value, response.status_code)


def test_an_editor_cannot_read_a_password_hash_through_the_posts_list(
    client, newsroom, admin_user, editor
):
    client.force_login(editor)
    prefix = admin_user.password.split("$")[0] + "$"
    everything = listed_links(client.get(POSTS_URL))
    assert everything

    right_guess = client.get(
        POSTS_URL, {"owner__username": "admin", "owner__password__startswith": prefix}
    )
    wrong_guess = client.get(
        POSTS_URL, {"owner__username": "admin", "owner__password__startswith": "zzz"}
    )
    assert listed_links(right_guess) == listed_links(wrong_guess) == everything


def test_an_editor_cannot_read_a_page_password_through_the_posts_list(client, newsroom, editor):
    client.force_login(editor)
    everything = listed_links(client.get(POSTS_URL))
    wrong = client.get(POSTS_URL, {"view_restrictions__password__startswith": "zzz"})
    right = client.get(POSTS_URL, {"view_restrictions__password__startswith": "hunt"})
    assert listed_links(wrong) == listed_links(right) == everything


@pytest.mark.parametrize(
    "query",
    [
        {"scheduled_at__gte": "x"},
        {"topic": "nope"},
        {"author": "nope"},
        {"status": "nope"},
        {"o": "nope"},
        {"p": "nope"},
    ],
)
def test_the_posts_list_answers_malformed_filters_with_the_whole_list(
    client, newsroom, editor, query
):
    client.force_login(editor)
    response = client.get(POSTS_URL, query)
    assert response.status_code == 200
    assert listed_links(response) == listed_links(client.get(POSTS_URL))


def test_the_posts_list_still_filters_and_searches_as_offered(client, newsroom, editor):
    client.force_login(editor)
    everything = listed_links(client.get(POSTS_URL))
    topic = Topic.objects.filter(post_links__isnull=False).first()
    by_topic = listed_links(client.get(POSTS_URL, {"topic": topic.slug}))
    searched = client.get(POSTS_URL, {"q": "zzz-no-such-title"})
    assert by_topic and by_topic < everything
    assert not listed_links(searched) & everything


def test_a_user_without_page_rights_sees_no_posts_and_no_schedule(client, blog, author, topic):
    soon = timezone.now() + timezone.timedelta(days=2)
    draft_post(blog, "Secret plans", authors=[author], topics=[topic])
    scheduled = draft_post(blog, "Launch day", authors=[author], topics=[topic])
    scheduled.go_live_at = soon
    scheduled.save_revision().publish()
    publish_post(blog, "Out there", authors=[author], topics=[topic])
    outsider = make_user("olga")
    outsider.groups.add(Group.objects.create(name="Admin access only"))
    outsider.groups.first().permissions.add(Permission.objects.get(codename="access_admin"))
    client.force_login(outsider)

    posts = client.get(POSTS_URL)
    calendar = client.get("/admin/calendar/", {"month": f"{soon:%Y-%m}"})

    assert posts.status_code == 200
    for title in ("Secret plans", "Launch day", "Out there"):
        assert title not in posts.content.decode()
        assert title not in calendar.content.decode()


def test_an_editor_sees_the_blogs_drafts_and_schedule(client, blog, author, topic, editor):
    soon = timezone.now() + timezone.timedelta(days=2)
    draft_post(blog, "Secret plans", authors=[author], topics=[topic])
    scheduled = draft_post(blog, "Launch day", authors=[author], topics=[topic])
    scheduled.go_live_at = soon
    scheduled.save_revision().publish()
    client.force_login(editor)

    posts = client.get(POSTS_URL).content.decode()
    calendar = client.get("/admin/calendar/", {"month": f"{soon:%Y-%m}"}).content.decode()

    assert "Secret plans" in posts and "Launch day" in posts
    assert "Launch day" in calendar


EDIT_LINK = re.compile(r'href="/admin/pages/(\d+)/edit/')


def edited_post_ids(response):
    """The posts a page of the list shows, by the edit link under each title."""
    return set(map(int, EDIT_LINK.findall(response.content.decode())))


def counts_of_posts(captured):
    return [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].startswith("SELECT COUNT(*)") and '"blog_blogpage"' in query["sql"]
    ]


@pytest.mark.parametrize("chosen", ["nothing", "topic", "search"])
def test_the_posts_list_pages_and_totals_what_it_shows_counting_it_once(
    client, newsroom, editor, monkeypatch, chosen
):
    monkeypatch.setattr(PostsAdmin, "list_per_page", 2)
    client.force_login(editor)
    posts = editorial_posts(editor)
    everything = posts.count()
    topic = Topic.objects.filter(post_links__isnull=False).first()
    query = {}
    if chosen == "topic":
        query = {"topic": topic.slug}
        posts = posts.filter(topic_links__topic=topic).distinct()
    elif chosen == "search":
        title = posts.first().draft_title
        query = {"q": title}
        posts = posts.filter(Q(title__icontains=title) | Q(draft_title__icontains=title))
    shown = posts.count()
    assert shown >= 1

    with CaptureQueriesContext(connection) as captured:
        response = client.get(POSTS_URL, query)

    pages = -(-shown // 2)
    html = BeautifulSoup(response.content, "html.parser")
    assert f"{shown} out of {everything}" in html.select_one("header").get_text(" ", strip=True)
    page = html.select_one("nav.pagination")
    assert f"Page 1 of {pages}" in page.get_text()
    assert f"{shown} post" in page.get_text()
    # All posts, and what a filter or search leaves when one is chosen: each counted once.
    assert len(counts_of_posts(captured)) == (1 if chosen == "nothing" else 2)
    # ...and never counted by reading every post.
    reads_of_posts = [
        query["sql"]
        for query in captured.captured_queries
        if 'FROM "blog_blogpage"' in query["sql"] and not query["sql"].startswith("SELECT COUNT")
    ]
    assert reads_of_posts and all(
        re.search(r"LIMIT \d+( OFFSET \d+)?$", sql) for sql in reads_of_posts
    )
    listed = [
        edited_post_ids(client.get(POSTS_URL, {**query, "p": number}))
        for number in range(1, pages + 1)
    ]
    assert sorted(id for ids in listed for id in ids) == sorted(posts.values_list("pk", flat=True))


@pytest.mark.parametrize("asked", [None, "0", "-3", "nope", "999"])
def test_the_posts_lists_first_page_links_the_pages_after_it(
    client, newsroom, editor, monkeypatch, asked
):
    """Whatever ?p= says, a page number that is not a page shows the first page, and its
    links go on to pages 2, 3 and 4, not to the ones around the last page."""
    client.force_login(editor)
    monkeypatch.setattr(PostsAdmin, "list_per_page", max(1, editorial_posts(editor).count() // 7))
    response = client.get(POSTS_URL, {} if asked is None else {"p": asked})
    nav = BeautifulSoup(response.content, "html.parser").select_one("nav.pagination")
    numbers = [item.get_text(strip=True) for item in nav.select(".pagination__page-number")]
    assert numbers[:4] == ["1", "2", "3", "4"]
    assert nav.select_one(".pagination__page-number--current").get_text(strip=True) == "1"
    assert "Page 1 of" in nav.get_text()
