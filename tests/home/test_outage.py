"""A database outage shows readers a 503 "back in a moment" page, never the 500 bug page."""

import pytest
from django.db import InterfaceError, OperationalError, ProgrammingError
from django.test import Client
from wagtail.models import Site


def site_lookup_fails_with(monkeypatch, error):
    def find_for_request(request):
        raise error

    monkeypatch.setattr(Site, "find_for_request", staticmethod(find_for_request))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "error",
    [OperationalError("connection refused"), InterfaceError("connection already closed")],
    ids=["refused", "closed"],
)
def test_a_lost_database_gives_readers_a_503_they_can_retry(home, monkeypatch, error):
    site_lookup_fails_with(monkeypatch, error)
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "no-store" in response["Cache-Control"]
    assert b"The blog is briefly unavailable." in response.content
    assert b"Something went wrong" not in response.content


@pytest.mark.django_db
def test_a_query_bug_is_still_a_500(home, monkeypatch):
    site_lookup_fails_with(monkeypatch, ProgrammingError("column does not exist"))
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    assert "Retry-After" not in response
    assert b"Something went wrong" in response.content
