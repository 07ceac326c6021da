"""config.settings.production as a deployment sees it: `manage.py check --deploy` in a fresh
process with only the environment an operator would set."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent


def run_manage(*args, **env):
    environment = {
        key: value
        for key, value in os.environ.items()
        # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE for Playwright; a deployment never has it.
        if key
        not in {"SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    environment.update(DJANGO_SETTINGS_MODULE="config.settings.production", **env)
    return subprocess.run(  # noqa: S603 - our own manage.py with fixed arguments
        [sys.executable, "manage.py", *args],
        cwd=PROJECT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def deployment_env(tmp_path):
    return {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "blog.example.com",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
    }


def test_the_deploy_checklist_passes_with_the_required_environment(deployment_env):
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **deployment_env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"])
def test_production_refuses_to_start_without(missing, deployment_env):
    del deployment_env[missing]
    result = run_manage("check", "--deploy", **deployment_env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"{missing} must be set" in result.stderr


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("ALLOWED_HOSTS", " , ", "ALLOWED_HOSTS must be set"),
        ("SECRET_KEY", "too-short", "SECRET_KEY must be at least 50 random characters"),
    ],
)
def test_production_refuses_unusable_values(variable, value, message, deployment_env):
    deployment_env[variable] = value
    result = run_manage("check", **deployment_env)
    assert result.returncode != 0
    assert message in result.stderr


def test_production_reads_every_allowed_host_and_trusted_origin(deployment_env):
    deployment_env["ALLOWED_HOSTS"] = "blog.example.com, www.blog.example.com"
    deployment_env["CSRF_TRUSTED_ORIGINS"] = "https://blog.example.com"
    script = (
        "import json; from django.conf import settings as s; print(json.dumps({"
        "'hosts': s.ALLOWED_HOSTS, 'origins': s.CSRF_TRUSTED_ORIGINS, 'hsts': s.SECURE_HSTS_SECONDS,"
        "'subdomains': s.SECURE_HSTS_INCLUDE_SUBDOMAINS, 'ssl': s.SECURE_SSL_REDIRECT,"
        "'session_secure': s.SESSION_COOKIE_SECURE, 'session_httponly': s.SESSION_COOKIE_HTTPONLY,"
        "'csrf_secure': s.CSRF_COOKIE_SECURE, 'exempt': s.SECURE_REDIRECT_EXEMPT}))"
    )
    result = run_manage("shell", "-c", script, **deployment_env)
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values["hosts"] == ["blog.example.com", "www.blog.example.com"]
    assert values["origins"] == ["https://blog.example.com"]
    assert values["hsts"] >= 31536000
    assert values["subdomains"] and values["ssl"]
    assert values["session_secure"] and values["session_httponly"] and values["csrf_secure"]
    assert values["exempt"] == [r"^healthz$", r"^readyz$"]


@pytest.mark.parametrize(("proxies", "secure"), [("0", False), ("1", True)])
def test_x_forwarded_proto_is_believed_only_behind_a_trusted_proxy(proxies, secure, deployment_env):
    script = (
        "from django.test import RequestFactory; "
        "print(RequestFactory().get('/', HTTP_X_FORWARDED_PROTO='https').is_secure())"
    )
    result = run_manage("shell", "-c", script, TRUSTED_PROXY_COUNT=proxies, **deployment_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == str(secure)


def admin_address(**env):
    script = "from django.conf import settings as s; print(s.WAGTAILADMIN_BASE_URL)"
    result = run_manage("shell", "-c", script, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_notification_emails_link_to_the_blogs_own_host_unless_told_otherwise(deployment_env):
    deployment_env["ALLOWED_HOSTS"] = ".example.com,blog.example.com"
    assert admin_address(**deployment_env) == "https://blog.example.com"
    deployment_env["WAGTAILADMIN_BASE_URL"] = "https://admin.example.com"
    assert admin_address(**deployment_env) == "https://admin.example.com"
