"""The admin benchmark (tests/bench/admin.py, `make bench BENCH_ARGS="--only admin"`): it sends what an
editor's browser sends, and leaves the post it measured as it found it."""

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from wagtail.blocks import CharBlock, ListBlock, StreamBlock
from wagtail.models import PageLogEntry
from wagtail.test.utils.form_data import nested_form_data

from blog.models import BlogPage
from tests.bench.admin import PAGES, Command, block_form_data

pytestmark = pytest.mark.django_db


def test_the_body_the_benchmark_sends_is_the_post_body_unchanged(demo_site):
    """Every block type of the demo posts (tables, figures, code, embeds...) comes back as is."""
    posts = BlogPage.objects.all()
    assert posts.count() >= 13
    for post in posts:
        stream = post.body.stream_block
        data = nested_form_data({"body": block_form_data(stream, post.body)})
        received = stream.value_from_datadict(data, {}, "body")
        assert without_block_keys(stream.get_prep_value(received)) == without_block_keys(
            post.body.get_prep_value()
        ), post.title


def test_a_list_block_is_sent_as_the_editor_sends_it():
    """The post body has no list today; a list added to it must not break the benchmark."""
    block = StreamBlock([("steps", ListBlock(CharBlock()))])
    value = block.to_python([{"type": "steps", "value": ["Cordon the node", "Drain it"]}])
    data = nested_form_data({"body": block_form_data(block, value)})
    received = block.value_from_datadict(data, {}, "body")
    assert [list(child.value) for child in received] == [["Cordon the node", "Drain it"]]


def without_block_keys(raw_body):
    """The body's data, less the paragraph keys the rich text editor adds to what it sends."""
    return json.loads(re.sub(r' data-block-key=\\"\w+\\"', "", json.dumps(raw_body, default=str)))


def test_a_run_times_every_admin_page_and_leaves_the_post_as_it_was(demo_site):
    post = BlogPage.objects.live().order_by("-first_published_at", "-pk").first()
    draft_state = ("draft_title", "has_unpublished_changes", "latest_revision", "seo_title")
    before = BlogPage.objects.filter(pk=post.pk).values(*draft_state).get()
    revisions = set(post.revisions.values_list("pk", flat=True))
    history = PageLogEntry.objects.filter(page=post).count()

    out = StringIO()
    call_command(Command(), repeat=2, stdout=out)

    result = json.loads(out.getvalue())
    assert result["post"] == post.title
    assert list(result["pages"]) == list(PAGES)
    for figures in result["pages"].values():
        assert figures["n"] == 2
        assert 0 < figures["p50"] <= figures["p95"]
        assert figures["queries"] > 0
    assert BlogPage.objects.filter(pk=post.pk).values(*draft_state).get() == before
    assert set(post.revisions.values_list("pk", flat=True)) == revisions
    assert PageLogEntry.objects.filter(page=post).count() == history
