"""The editor-actions benchmark (tests/bench/editor_actions.py, `make bench
BENCH_ARGS="--only editor-actions"`): one round in Chromium against a live server gives a row
for every action, and leaves no draft behind. Times are the benchmark's to judge, not a test's."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from blog.models import BlogPage
from tests.bench.editor_actions import ACTIONS, Command
from tests.bench.run import editor_action_rows

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_one_round_gives_a_row_for_every_action(demo_site, live_server):
    posts_before = set(BlogPage.objects.values_list("pk", flat=True))
    out = StringIO()

    call_command(Command(), server=live_server.url, repeat=1, stdout=out)

    actions = json.loads(out.getvalue())["actions"]
    rows = editor_action_rows(actions)
    assert [row.split("|")[1].strip() for row in rows] == list(ACTIONS)
    assert all(figures["n"] == 1 for figures in actions.values())
    assert set(BlogPage.objects.values_list("pk", flat=True)) == posts_before
