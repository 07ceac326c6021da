"""The picture library's form says what the description is for (issue #33, point 11)."""

import pytest
from bs4 import BeautifulSoup

from tests.factories import make_image

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("address", ["/admin/images/add/", "/admin/images/{pk}/"])
def test_the_description_says_it_becomes_the_alt_text(admin_client, address):
    image = make_image("A rack")
    page = BeautifulSoup(admin_client.get(address.format(pk=image.pk)).content, "html.parser")
    field = page.find(id="id_description").find_parent(attrs={"data-field-wrapper": True})
    assert "Becomes the picture's alt text" in field.get_text(" ", strip=True)
