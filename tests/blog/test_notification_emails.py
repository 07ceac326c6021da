"""Review e-mails link to the blog's own address: the one the deployment configures
(WAGTAILADMIN_BASE_URL), for the admin's pages and the posts alike."""

import os
import re

import pytest
from django.core import mail
from django.core.management import call_command
from wagtail.models import Site

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.models import BlogPage

from .scheduling import edit_form_data, edit_url, make_user

pytestmark = pytest.mark.django_db

ADDRESS = "https://news.example.org"


def links_in(messages):
    texts = [message.body for message in messages]
    texts += [body for message in messages for body, _ in getattr(message, "alternatives", [])]
    return re.findall(r"https?://[^\s\"'<>]+", "\n".join(texts))


def test_review_emails_link_to_the_configured_address(client, settings, monkeypatch):
    monkeypatch.setenv("WAGTAILADMIN_BASE_URL", ADDRESS)
    settings.WAGTAILADMIN_BASE_URL = ADDRESS
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    assert Site.objects.get(is_default_site=True).root_url == ADDRESS
    editor = make_user("eddie", group=EDITORS)
    make_user("pat", group=PUBLISHERS)
    post = BlogPage.objects.live().first()

    client.force_login(editor)
    submit = edit_form_data(client, post, title="Reviewed by e-mail")
    submit["action-submit"] = "action-submit"
    client.post(edit_url(post), submit)
    client.force_login(make_user("kenji", group=PUBLISHERS))
    approve = edit_form_data(client, post)
    approve["action-workflow-action"] = "true"
    approve["workflow-action-name"] = "approve"
    client.post(edit_url(post), approve)

    subjects = " | ".join(message.subject for message in mail.outbox)
    assert "submitted" in subjects.lower() and "approved" in subjects.lower(), subjects
    links = links_in(mail.outbox)
    assert links
    assert all(link.startswith(ADDRESS + "/") for link in links), links
