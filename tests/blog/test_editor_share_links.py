"""A reviewer without an admin account reads a post's newest draft through a share link."""

from datetime import timedelta

import pytest
import time_machine
from bs4 import BeautifulSoup
from django.contrib.auth.models import Permission
from django.utils import timezone

from blog.share_links import DraftShareLink
from tests.factories import draft_post, publish_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def post(blog, author, topic):
    """A live post whose editor has since saved a new, unpublished draft."""
    post = publish_post(blog, "Published headline", authors=[author], topics=[topic])
    post.title = "Draft headline"
    post.summary = "Draft summary the reviewer should see."
    post.save_revision()
    return post


def share_page_url(post):
    return f"/admin/blog/posts/{post.pk}/share-links/"


def create_link(client, post, days=7):
    response = client.post(share_page_url(post), {"valid_for_days": days})
    assert response.status_code == 302
    return DraftShareLink.objects.filter(page=post).first()


def text(response):
    return " ".join(BeautifulSoup(response.content, "html.parser").get_text(" ").split())


def test_the_editor_finds_share_draft_in_the_post_header_menu(admin_client, post):
    response = admin_client.get(f"/admin/pages/{post.pk}/edit/")
    assert share_page_url(post) in response.content.decode()


def test_an_anonymous_reviewer_reads_the_newest_draft_marked_as_such(client, admin_client, post):
    link = create_link(admin_client, post)
    response = client.get(f"/share/{link.token}/")
    assert response.status_code == 200
    page = BeautifulSoup(response.content, "html.parser")
    assert page.select_one("h1.post__title").get_text() == "Draft headline"
    assert "Draft — not published" in page.select_one(".draft-banner").get_text()
    assert page.select_one('meta[name="robots"]')["content"] == "noindex"
    assert "noindex" in response["X-Robots-Tag"]
    cache_control = response["Cache-Control"]
    assert "private" in cache_control and "no-store" in cache_control


def test_the_shared_page_shows_only_that_post(client, admin_client, post):
    admin_client.get(f"/share/{create_link(admin_client, post).token}/")  # signed in: still plain
    response = admin_client.get(f"/share/{post.share_links.get().token}/")
    page = BeautifulSoup(response.content, "html.parser")
    hrefs = [a["href"] for a in page.select("a[href]")]
    assert hrefs == []
    assert "/admin/" not in response.content.decode()
    assert page.select_one("template#wagtail-userbar-template") is None


def test_the_live_site_still_shows_the_published_version(client, admin_client, post):
    create_link(admin_client, post)
    response = client.get(post.url)
    assert "Published headline" in text(response)
    assert "Draft headline" not in text(response)


def test_a_never_published_draft_can_be_shared(client, admin_client, blog, author, topic):
    draft = draft_post(blog, "Still a secret", authors=[author], topics=[topic])
    link = create_link(admin_client, draft)
    assert client.get(draft.url or "/blog/still-a-secret/").status_code == 404
    assert "Still a secret" in text(client.get(f"/share/{link.token}/"))


def test_a_link_stops_working_when_it_expires(client, admin_client, post):
    link = create_link(admin_client, post, days=3)
    assert link.expires_at - link.created_at == timedelta(days=3)
    with time_machine.travel(timezone.now() + timedelta(days=2, hours=23), tick=False):
        assert client.get(f"/share/{link.token}/").status_code == 200
    with time_machine.travel(timezone.now() + timedelta(days=3, minutes=1), tick=False):
        response = client.get(f"/share/{link.token}/")
        assert response.status_code == 404
        assert "Draft headline" not in text(response)


def test_links_last_seven_days_unless_the_editor_chooses(admin_client, post):
    link = DraftShareLink.objects.create(page=post)
    assert timedelta(days=6, hours=23) < link.expires_at - timezone.now() <= timedelta(days=7)


def test_a_revoked_link_shows_not_found(client, admin_client, post):
    link = create_link(admin_client, post)
    response = admin_client.post(f"/admin/blog/share-links/{link.pk}/revoke/")
    assert response.status_code == 302
    assert client.get(f"/share/{link.token}/").status_code == 404
    listing = text(admin_client.get(share_page_url(post)))
    assert "Switched off" in listing


def test_an_unknown_token_shows_not_found(client, post):
    assert client.get("/share/not-a-real-token/").status_code == 404


def test_the_share_screen_lists_links_with_their_address_and_expiry(admin_client, post):
    link = create_link(admin_client, post)
    response = admin_client.get(share_page_url(post))
    assert response.status_code == 200
    assert f"http://testserver/share/{link.token}/" in response.content.decode()
    assert "Active" in text(response)


def test_revoking_needs_a_post_request(admin_client, post):
    link = create_link(admin_client, post)
    assert admin_client.get(f"/admin/blog/share-links/{link.pk}/revoke/").status_code == 405
    link.refresh_from_db()
    assert link.is_usable


def test_an_editor_without_edit_rights_cannot_share(client, post, django_user_model):
    """Wagtail answers a forbidden admin screen by sending the user back to the dashboard."""
    outsider = django_user_model.objects.create_user("reader", password="pw")
    outsider.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client.force_login(outsider)
    assert client.get(share_page_url(post))["Location"] == "/admin/"
    assert client.post(share_page_url(post), {"valid_for_days": 7})["Location"] == "/admin/"
    assert not DraftShareLink.objects.exists()


def test_a_bad_duration_is_refused_with_the_form_shown_again(admin_client, post):
    response = admin_client.post(share_page_url(post), {"valid_for_days": 365})
    assert response.status_code == 200
    assert "Select a valid choice" in text(response)
    assert not DraftShareLink.objects.exists()


@pytest.mark.parametrize(
    "token",
    [
        "%00",  # a NUL byte, which PostgreSQL refuses in a string
        "x" * 43 + "%00",
        "A" * 44,  # one character too long
        "A" * 42,
        "A" * 10_000,
        "%E2%80%A6" * 43,  # the right length in characters, not in the token's alphabet
        "A" * 42 + "=",
        "A" * 42 + "%20",
    ],
)
def test_a_malformed_token_shows_the_readable_not_found_page(client, admin_client, post, token):
    create_link(admin_client, post)
    response = client.get(f"/share/{token}/")
    assert response.status_code == 404
    assert "We couldn't find that page." in text(response)
    assert "Draft headline" not in text(response)
