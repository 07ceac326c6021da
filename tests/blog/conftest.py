import pytest
from django.contrib.auth.models import Group, Permission, User
from wagtail.models import GroupPagePermission

from tests.factories import make_author, make_image


@pytest.fixture
def editor(blog):
    """A writer without superpowers: may add, edit and publish posts under the blog."""
    group = Group.objects.create(name="Blog writers")
    group.permissions.add(Permission.objects.get(codename="access_admin"))
    for permission in ("add_page", "change_page", "publish_page"):
        GroupPagePermission.objects.create(
            group=group, page=blog, permission=Permission.objects.get(codename=permission)
        )
    user = User.objects.create_user("grace", "grace@example.com", "pw", first_name="Grace")
    user.groups.add(group)
    make_author("Grace Hopper", user=user)
    return user


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


@pytest.fixture
def hero_image(db):
    return make_image("Rack of GPUs")
