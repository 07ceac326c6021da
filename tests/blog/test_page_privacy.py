"""Someone with admin access but no rights on a page sees nothing of it in the admin: Wagtail's
page chooser and page bulk-action confirmations named any page, draft titles included."""

import pytest
from django.contrib.auth.models import Permission, User

from tests.factories import draft_post

pytestmark = pytest.mark.django_db

DRAFT_TITLE = "Unannounced layoffs plan"


@pytest.fixture
def draft(blog):
    return draft_post(blog, DRAFT_TITLE)


@pytest.fixture
def outsider_client(client, db):
    """Signs in to the admin, and holds no page permission anywhere."""
    user = User.objects.create_user("olga", "olga@example.com", "pw")
    user.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client.force_login(user)
    return client


def page_addresses(blog, draft):
    return [
        f"/admin/choose-page/{draft.pk}/",
        f"/admin/choose-page/{blog.pk}/",
        "/admin/choose-page/",
        f"/admin/choose-page/search/?q={DRAFT_TITLE.split()[1]}",
        f"/admin/choose-page/chosen-multiple/?id={draft.pk}",
        f"/admin/bulk/wagtailcore/page/delete/?id={draft.pk}",
        f"/admin/bulk/wagtailcore/page/publish/?id={draft.pk}&id={blog.pk}",
        f"/admin/bulk/wagtailcore/page/delete/?childOf={blog.pk}&id=all",
    ]


def test_a_user_with_no_page_rights_sees_no_title_of_a_draft(outsider_client, blog, draft):
    for address in page_addresses(blog, draft):
        response = outsider_client.get(address)
        assert response.status_code in (200, 404), address
        assert DRAFT_TITLE not in response.content.decode(), address
        assert blog.title not in response.content.decode() or response.status_code == 404, address


def test_a_writer_still_chooses_and_finds_the_blogs_posts(editor_client, blog, draft):
    browse = editor_client.get(f"/admin/choose-page/{blog.pk}/")
    assert browse.status_code == 200
    assert DRAFT_TITLE in browse.content.decode()
    found = editor_client.get("/admin/choose-page/search/", {"q": "layoffs"})
    assert DRAFT_TITLE in found.content.decode()
    confirm = editor_client.get("/admin/bulk/wagtailcore/page/delete/", {"id": draft.pk})
    assert confirm.status_code == 200
    assert DRAFT_TITLE in confirm.content.decode()
