"""Guessing passwords at the admin sign-in, and flooding the password reset form."""

from datetime import timedelta

import pytest
import time_machine
from axes.handlers.proxy import AxesProxyHandler
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from home.security import client_ip

LOGIN = "/admin/login/"
RESET = "/admin/password_reset/"
PASSWORD = "correct horse battery staple"


@pytest.fixture
def editor(db):
    return User.objects.create_user(
        "editor", "editor@example.com", PASSWORD, is_staff=True, is_superuser=True
    )


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def sign_in(client, password, username="editor", **headers):
    return client.post(LOGIN, {"username": username, "password": password}, **headers)


def fail_five_times(client, **headers):
    for _ in range(5):
        response = sign_in(client, "wrong", **headers)
        assert response.status_code in {200, 429}


def test_a_right_password_still_signs_in(client, editor):
    assert sign_in(client, PASSWORD).status_code == 302


def test_five_wrong_passwords_lock_the_user_out_with_a_readable_page(client, editor):
    fail_five_times(client)
    response = sign_in(client, PASSWORD)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many sign-in attempts" in page
    assert "0:15:00" in page
    assert "_auth_user_id" not in client.session


def test_the_lock_is_per_username_and_address(editor):
    User.objects.create_user("other", "other@example.com", PASSWORD, is_staff=True)
    fail_five_times(Client(REMOTE_ADDR="203.0.113.7"))
    assert sign_in(Client(REMOTE_ADDR="203.0.113.7"), PASSWORD, username="other").status_code == 302
    assert sign_in(Client(REMOTE_ADDR="198.51.100.9"), PASSWORD).status_code == 302
    assert sign_in(Client(REMOTE_ADDR="203.0.113.7"), PASSWORD).status_code == 429


def test_rotating_x_forwarded_for_does_not_reset_the_count(client, editor):
    for n in range(5):
        sign_in(client, "wrong", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
    response = sign_in(client, PASSWORD, HTTP_X_FORWARDED_FOR="10.0.0.99")
    assert response.status_code == 429


def test_behind_one_trusted_proxy_the_address_it_saw_counts(settings, editor):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = Client(REMOTE_ADDR="10.0.0.2")
    # The client may prepend anything; the proxy appends the address it really saw.
    for n in range(5):
        sign_in(proxy, "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.7")
    assert sign_in(proxy, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
    # Another reader behind the same proxy is not locked out.
    assert sign_in(proxy, PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.9").status_code == 302


def test_the_lock_survives_a_restart(client, editor):
    fail_five_times(client)
    assert AccessAttempt.objects.get(username="editor").failures_since_start == 5
    # A new process builds its handler and client afresh; the lock is read from the database.
    AxesProxyHandler.implementation = None
    assert sign_in(Client(), PASSWORD).status_code == 429


def test_the_lock_lifts_after_fifteen_minutes(client, editor):
    fail_five_times(client)
    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        assert sign_in(Client(), PASSWORD).status_code == 302


def request_reset(client, email):
    return client.post(RESET, {"email": email})


def test_password_reset_still_sends_the_email(client, editor):
    response = request_reset(client, "editor@example.com")
    assert response.status_code == 302
    assert len(mail.outbox) == 1


def test_password_reset_is_limited_per_email_address(editor):
    for n in range(5):
        # Different addresses, different letter case: one mailbox all the same.
        client = Client(REMOTE_ADDR=f"198.51.100.{n}")
        assert request_reset(client, " Editor@Example.com").status_code == 302
    response = request_reset(Client(REMOTE_ADDR="198.51.100.50"), "editor@example.com")
    assert response.status_code == 429
    assert "Too many password reset requests" in response.content.decode()
    assert len(mail.outbox) == 5


@pytest.mark.parametrize("spelling", ["ED1@EXAMPLE.TEST", "ed1@example.te\u017ft"])
def test_no_spelling_of_the_address_escapes_the_per_email_limit(db, spelling):
    # U+017F, the long s: PostgreSQL's case-insensitive match and Django's casefold make it an s.
    User.objects.create_user("ed1", "ed1@example.test", PASSWORD, is_staff=True)
    for n in range(5):
        client = Client(REMOTE_ADDR=f"198.51.100.{n}")
        assert request_reset(client, "ed1@example.test").status_code == 302
    response = request_reset(Client(REMOTE_ADDR="198.51.100.50"), spelling)
    assert response.status_code == 429
    assert len(mail.outbox) == 5


def test_password_reset_is_limited_per_address(client, settings, editor):
    settings.PASSWORD_RESET_RATE_PER_IP = "3/h"
    for n in range(3):
        assert request_reset(client, f"someone{n}@example.com").status_code == 302
    assert request_reset(client, "editor@example.com").status_code == 429
    assert mail.outbox == []
    # Reading the form is never limited.
    assert client.get(RESET).status_code == 200


def test_a_request_that_skipped_the_proxies_counts_by_its_socket_address(settings, rf):
    settings.TRUSTED_PROXY_COUNT = 2
    request = rf.get("/", REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert client_ip(request) == "203.0.113.7"
