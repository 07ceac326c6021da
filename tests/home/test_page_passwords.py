"""Guessing the password of a password-protected page."""

from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from wagtail.models import PageViewRestriction

PASSWORD = "open sesame"
LIMITED = "Too many password attempts"


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def restriction(blog):
    return PageViewRestriction.objects.create(
        page=blog, restriction_type="password", password=PASSWORD
    )


def enter_password(client, restriction, password):
    page = restriction.page
    return client.post(
        f"/_util/authenticate_with_password/{restriction.id}/{page.id}/",
        {"password": password, "return_url": page.url},
    )


def guess(client, restriction, times):
    for n in range(times):
        response = enter_password(client, restriction, f"guess {n}")
        assert response.status_code == 200
        assert "password" in response.content.decode().lower()


def test_the_right_password_opens_the_page(client, restriction):
    response = enter_password(client, restriction, PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == restriction.page.url
    page = client.get(restriction.page.url)
    assert page.status_code == 200
    assert "id_password" not in page.content.decode()


def test_guessing_from_one_address_is_stopped_before_the_right_password(settings, restriction):
    settings.PAGE_PASSWORD_RATE_PER_IP = "10/h"
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    guess(guesser, restriction, 10)

    response = enter_password(guesser, restriction, PASSWORD)
    assert response.status_code == 429
    assert LIMITED in response.content.decode()
    # Not let in: the page still asks for its password.
    assert "id_password" in guesser.get(restriction.page.url).content.decode()

    # Another reader is unaffected, and so is the guesser an hour later.
    reader = Client(REMOTE_ADDR="198.51.100.9")
    assert enter_password(reader, restriction, PASSWORD).status_code == 302
    with time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1)):
        assert enter_password(guesser, restriction, PASSWORD).status_code == 302


def test_the_form_still_shows_to_a_limited_address(settings, restriction):
    settings.PAGE_PASSWORD_RATE_PER_IP = "3/h"
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    guess(guesser, restriction, 3)
    response = guesser.get(
        f"/_util/authenticate_with_password/{restriction.id}/{restriction.page.id}/"
    )
    assert response.status_code == 200
    assert "id_password" in response.content.decode()


def test_guesses_spread_over_many_addresses_are_capped_per_page(settings, restriction):
    settings.PAGE_PASSWORD_RATE_PER_RESTRICTION = "5/h"
    for n in range(5):
        guess(Client(REMOTE_ADDR=f"192.0.2.{n}"), restriction, 1)
    response = enter_password(Client(REMOTE_ADDR="192.0.2.99"), restriction, PASSWORD)
    assert response.status_code == 429


def test_the_default_limit_stops_forty_guesses(restriction):
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    statuses = [enter_password(guesser, restriction, f"guess {n}").status_code for n in range(40)]
    assert 429 in statuses
    assert enter_password(guesser, restriction, PASSWORD).status_code == 429
