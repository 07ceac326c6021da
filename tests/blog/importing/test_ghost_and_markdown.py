"""A Ghost export and a folder of Markdown files brought in."""

import json
import re

import pytest
from django.core.management import CommandError

from blog.models import BlogPage, Topic

from .conftest import FIXTURES

GHOST = FIXTURES / "ghost-v5.json"


def test_ghost_post_with_its_tags_authors_and_feature_image(run_import, media):
    report = run_import(GHOST, "--media", str(media))
    post = BlogPage.objects.get(slug="ghost-post")
    assert post.live and post.featured
    assert post.first_published_at.isoformat() == "2023-01-10T08:30:00+00:00"
    assert post.summary == "A Ghost summary."
    assert post.hero_alt == "A rack of servers"
    assert [a.name for a in post.authors] == ["Grace Hopper"]
    # Internal #tags organise Ghost's own site and are skipped; the order is Ghost's.
    assert [t.name for t in post.topics] == ["GPU", "Reliability"]
    assert not Topic.objects.filter(name="#internal").exists()
    kinds = [block.block_type for block in post.body]
    assert kinds == ["paragraph", "image", "embed"]
    assert post.body[2].value["embed"].url == "https://www.youtube.com/watch?v=abc123"
    assert "a Ghost page, not a post" in report


def test_ghost_post_without_html_keeps_its_lexical_text(run_import, media):
    run_import(GHOST, "--media", str(media))
    draft = BlogPage.objects.get(slug="ghost-draft")
    assert not draft.live
    assert "Only lexical &lt;here&gt;." in draft.body[0].value.source


def test_an_older_ghost_export_with_mobiledoc_only(run_import, media, tmp_path):
    mobiledoc = '{"version": "0.3.1", "sections": [[1, "p", [[0, [], 0, "Old words"]]]]}'
    export = tmp_path / "ghost-v2.json"
    export.write_text(
        json.dumps(
            {
                "db": [
                    {
                        "data": {
                            "posts": [
                                {
                                    "id": "1",
                                    "title": "Old Ghost",
                                    "slug": "old-ghost",
                                    "mobiledoc": mobiledoc,
                                    "status": "draft",
                                }
                            ]
                        }
                    }
                ]
            }
        )
    )
    run_import(export)
    assert "Old words" in BlogPage.objects.get(slug="old-ghost").body[0].value.source


def test_ghost_export_that_is_not_json(run_import, tmp_path):
    broken = tmp_path / "ghost.json"
    broken.write_text('{"db": [\n{"data": }]}')
    with pytest.raises(CommandError, match="not valid JSON at line 2, column 10"):
        run_import(broken)


def test_markdown_folder_with_front_matter(run_import, markdown_folder):
    report = run_import(markdown_folder)
    first = BlogPage.objects.get(slug="first-steps")
    assert first.title == "First steps: a Markdown post"
    assert first.live
    assert first.first_published_at.isoformat() == "2021-04-01T07:30:00+00:00"
    assert [t.slug for t in first.topics] == ["reliability", "gpu"]
    assert [a.name for a in first.authors] == ["Ada Lovelace"]
    assert first.summary == "Notes from the first week."
    assert first.hero_alt == "A hand-drawn cover"
    kinds = [block.block_type for block in first.body]
    assert kinds == ["paragraph", "code", "image", "table"]
    second = BlogPage.objects.get(slug="second")
    assert not second.live
    assert [t.name for t in second.topics] == ["Notes"]
    assert "  created         2" in report


@pytest.mark.parametrize(
    "front_matter, message",
    [
        # YAML's billion laughs: each alias doubles what reading the value expands to.
        ("a: &a [x, x]\nb: &b [*a, *a]\ntitle: [*b, *b]\n", r"line 3: .*aliases"),
        ("title: [unclosed\n", r"line \d: the front matter cannot be read"),
        ("- just\n- a list\n", r"line 2: the front matter is not a list of keys"),
    ],
)
def test_markdown_front_matter_it_cannot_read(run_import, markdown_folder, front_matter, message):
    """One post that cannot be read is reported and skipped; it never stops the others."""
    (markdown_folder / "posts" / "odd.md").write_text(f"---\n{front_matter}---\nBody\n")
    report = run_import(markdown_folder)
    assert re.search(
        rf"skipped: posts/odd.md — it could not be read: posts/odd.md, {message}", report
    )
    assert BlogPage.objects.filter(slug="first-steps").exists()
