import pytest
from django.db import OperationalError

from home import health


class UnreachableDatabase:
    def cursor(self):
        raise OperationalError("connection refused")


def test_healthz_answers_without_touching_the_database(client):
    # No django_db mark: pytest-django fails the test on any database access.
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert "no-cache" in response["Cache-Control"]


def test_healthz_answers_without_the_database_with_every_cache_on(client, page_cache):
    # As in production: the page cache and the content cache must not look anything up.
    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
def test_readyz_is_ok_when_the_database_answers(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert "max-age=0" in response["Cache-Control"]


@pytest.mark.django_db
def test_readyz_is_503_with_a_short_body_when_the_database_is_down(client, monkeypatch, caplog):
    monkeypatch.setattr(health, "connection", UnreachableDatabase())
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.content == b"database unreachable\n"
    assert "no-cache" in response["Cache-Control"]
    assert "database is unreachable" in caplog.text


@pytest.mark.django_db
def test_a_plain_http_load_balancer_probe_is_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200
    # Everything else still goes to HTTPS.
    assert client.get("/search/").status_code == 301


def test_probes_refuse_writes(client):
    assert client.post("/healthz").status_code == 405
