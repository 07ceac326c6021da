"""Guessing the password of a password-protected page or collection of documents, or any
other password form."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings as django_settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.test import Client
from django.urls import URLResolver, get_resolver, resolve
from django.urls.converters import IntConverter
from django.utils import timezone
from wagtail.documents.models import Document
from wagtail.models import Collection, CollectionViewRestriction, PageViewRestriction

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


@pytest.fixture
def private_document(db):
    collection = Collection.get_first_root_node().add_child(name="Board papers")
    restriction = CollectionViewRestriction.objects.create(
        collection=collection, restriction_type="password", password=PASSWORD
    )
    document = Document.objects.create(
        title="Budget",
        collection=collection,
        file=ContentFile(b"the secret budget", name="budget.txt"),
    )
    return restriction, document


def enter_document_password(client, restriction, document, password):
    return client.post(
        f"/documents/authenticate_with_password/{restriction.id}/",
        {"password": password, "return_url": document.url},
    )


def test_guessing_a_collections_password_is_stopped_before_the_right_one(private_document):
    restriction, document = private_document
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    statuses = [
        enter_document_password(guesser, restriction, document, f"guess {n}").status_code
        for n in range(30)
    ]
    assert statuses[:20] == [200] * 20
    assert set(statuses[20:]) == {429}
    response = enter_document_password(guesser, restriction, document, PASSWORD)
    assert response.status_code == 429
    assert LIMITED in response.content.decode()
    asked = guesser.get(document.url)
    assert "id_password" in asked.content.decode()
    assert b"the secret budget" not in asked.content
    # Another reader with the password still gets the file.
    reader = Client(REMOTE_ADDR="198.51.100.9")
    assert enter_document_password(reader, restriction, document, PASSWORD).status_code == 302
    assert b"".join(reader.get(document.url).streaming_content) == b"the secret budget"


# Password forms a guesser cannot use, each with the reason.
NOT_GUESSABLE = {
    "wagtailadmin_password_reset_confirm": "sets a new password behind a reset link's token, "
    "an HMAC of the user's password hash that no one can guess",
}
PASSWORD_WORDS = ("password", "authenticat", "login")
PASSWORD_VIEWS = (
    auth_views.LoginView,
    auth_views.PasswordChangeView,
    auth_views.PasswordResetView,
    auth_views.PasswordResetConfirmView,
)


def url_patterns(patterns=None, prefix=""):
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from url_patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern


def takes_a_password(pattern):
    view = pattern.callback
    view_class = getattr(view, "view_class", None)
    words = f"{pattern.name} {view.__module__}.{view.__qualname__}".lower()
    return any(word in words for word in PASSWORD_WORDS) or (
        view_class is not None and issubclass(view_class, PASSWORD_VIEWS)
    )


CONVERTER = re.compile(r"<(?:\w+:)?(\w+)>")


def address_of(route, pattern, ids):
    """The pattern's path with each converter filled: a real id where one is known."""
    converters = getattr(pattern.pattern, "converters", {})

    def value(match):
        name = match.group(1)
        is_int = isinstance(converters.get(name), IntConverter)
        return str(ids.get(name, 1)) if is_int else "x"

    return "/" + CONVERTER.sub(value, route)


def test_every_password_form_in_the_url_conf_is_throttled(settings, restriction, private_document):
    """A new password form cannot slip in unthrottled: each one found in the URL conf answers
    429 once the guesses of one address pass the limit."""
    for name in dir(django_settings):
        if "_RATE_PER_" in name:
            setattr(settings, name, "3/h")
    collection_restriction, _ = private_document
    ids = {
        "page_view_restriction_id": restriction.id,
        "page_id": restriction.page.id,
        "restriction_id": collection_restriction.id,
    }
    found = set()
    for route, pattern in url_patterns():
        if not takes_a_password(pattern) or pattern.name in NOT_GUESSABLE:
            continue
        address = address_of(route, pattern, ids)
        assert "<" not in address and "(" not in address, route
        # A pattern shadowed by the project's own view is tried as the view that answers.
        if resolve(address).url_name in NOT_GUESSABLE or address in found:
            continue
        found.add(address)
        guesser = Client(REMOTE_ADDR=f"203.0.113.{len(found)}")
        form = {"username": "someone", "password": "wrong", "email": "someone@example.com"}
        statuses = [guesser.post(address, form).status_code for _ in range(8)]
        if set(statuses) == {405}:
            continue  # a page, not a form: it takes no POST
        assert statuses[0] != 429, (address, statuses)
        assert statuses[-1] == 429, (address, statuses)
    assert {
        "/admin/login/",
        "/_util/login/",
        "/admin/password_reset/",
        f"/documents/authenticate_with_password/{collection_restriction.id}/",
        f"/_util/authenticate_with_password/{restriction.id}/{restriction.page.id}/",
    } <= found
