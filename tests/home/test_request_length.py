"""A request whose Content-Length is not a number gets a readable 400 (home/security.py), never
a 500, and nothing it carried is acted on."""

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

MALFORMED = ["abc", "-1", "1e3", "12abc", "0x10", "1_000", "٣", " 5", "5 ", "+5"]


@pytest.mark.parametrize("length", MALFORMED)
def test_a_post_with_a_malformed_length_is_refused_readably(client, length):
    User.objects.create_user("ada", password="right")
    response = client.generic(
        "POST",
        "/admin/login/",
        b"username=ada&password=right",
        content_type="application/x-www-form-urlencoded",
        CONTENT_LENGTH=length,
    )
    assert response.status_code == 400
    assert "could not be understood" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("length", MALFORMED)
def test_a_reader_page_with_a_malformed_length_is_refused_readably(client, blog, length):
    response = client.get("/blog/", CONTENT_LENGTH=length)
    assert response.status_code == 400
    assert "could not be understood" in response.content.decode()


@pytest.mark.parametrize("length", ["", "0", "27"])
def test_a_well_formed_length_is_served(client, length):
    User.objects.create_user("ada", password="right")
    response = client.generic(
        "POST",
        "/admin/login/",
        b"username=ada&password=right",
        content_type="application/x-www-form-urlencoded",
        CONTENT_LENGTH=length,
    )
    assert response.status_code in (200, 302)
