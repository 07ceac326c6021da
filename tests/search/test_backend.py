"""The search backend: modelsearch's own database backend."""

import pytest

from tests.factories import publish_post

from .helpers import body, result_titles

pytestmark = pytest.mark.django_db


def test_every_word_must_match_but_may_be_in_title_or_body(client, blog, author):
    publish_post(blog, "Restore drills", authors=[author], body=body("Latency is what hurts."))
    publish_post(blog, "Restore only", authors=[author], body=body("Nothing else here."))
    publish_post(blog, "Phrases apart", authors=[author], body=body("Latency, then restore."))
    response = client.get("/search/", {"q": "restore latency"})
    assert sorted(result_titles(response)) == ["Phrases apart", "Restore drills"]
