"""Markdown sites read as Jekyll and Hugo read them, and Ghost's own rules kept: each rule on
the smallest folder or export that shows it."""

import json
from datetime import UTC, datetime

import pytest

from blog.importing.ghost import parse_ghost
from blog.importing.liquid import expand_templates
from blog.importing.markdown import as_datetime, parse_markdown_folder
from blog.importing.records import DRAFT, LIVE, SCHEDULED
from blog.importing.safety import ExportError

from .conftest import FIXTURES


def site(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return parse_markdown_folder(tmp_path)


def one(export, ending):
    return next(post for post in export.posts if post.source_id.endswith(ending))


@pytest.mark.parametrize(
    "value, expected",
    [
        ("2016-1-29 8:00:00", "2016-01-29T08:00:00+00:00"),
        ("2016-1-29", "2016-01-29T00:00:00+00:00"),
        ("2013-09-14 20:46:50 -0400", "2013-09-15T00:46:50+00:00"),
        ("2015-1-1 12:00 UTC", "2015-01-01T12:00:00+00:00"),
        ("2019-07-25T10:00:00+02:00", "2019-07-25T08:00:00+00:00"),
        ("2019-07-25T10:00:00.123Z", "2019-07-25T10:00:00+00:00"),
    ],
)
def test_dates_as_jekyll_and_hugo_write_them(value, expected):
    assert as_datetime(value, "post.md").isoformat() == expected


def test_a_date_that_is_not_one_is_named():
    with pytest.raises(ExportError, match="post.md: “2016-13-40” is not a date"):
        as_datetime("2016-13-40", "post.md")
    with pytest.raises(ExportError, match="“soon” is not a date"):
        as_datetime("soon", "post.md")


def test_a_jekyll_site_in_its_time_zone_with_its_permalink_under_defaults(tmp_path):
    export = site(
        tmp_path,
        {
            "_config.yml": "timezone: Europe/Paris\nurl: https://old.example\ndefaults:\n"
            "  - scope: {path: '_posts'}\n    values: {permalink: '/:categories/:title/'}\n",
            # YAML reads this one as a date and time without a zone: the site's zone.
            "_posts/2016-1-29-unpadded.md": "---\ntitle: Unpadded\ndate: 2016-1-29 8:00:00\n"
            "categories: Big News\n---\nWords.\n",
            # No date in the front matter: the file name's, at midnight in the site's zone.
            "_posts/2016-02-03-from-the-name.markdown": "---\ntitle: Named\n---\nWords.\n",
            "_posts/2016-02-04-hidden.md": "---\npublished: false\n---\nWords.\n",
            "_drafts/not-yet.md": "---\ntitle: Not yet\n---\nWords.\n",
            "about.md": "---\ntitle: About\n---\nA page of the site.\n",
        },
    )
    assert export.source == "markdown:https://old.example"
    unpadded = one(export, "unpadded.md")
    assert unpadded.published_at.isoformat() == "2016-01-29T07:00:00+00:00"
    assert [t.name for t in unpadded.topics] == ["Big", "News"]
    assert unpadded.old_addresses == ["/big/news/unpadded/"]
    named = one(export, "from-the-name.markdown")
    assert named.published_at == datetime(2016, 2, 2, 23, tzinfo=UTC)
    assert named.status == LIVE
    assert one(export, "hidden.md").status == DRAFT
    assert one(export, "not-yet.md").status == DRAFT
    assert ("about.md", "a page of the site") in export.skipped


def test_jekylls_default_address_and_a_post_in_the_future(tmp_path):
    export = site(
        tmp_path,
        {
            "_config.yml": "title: Blog\n",
            "_posts/2016-05-06-hello.md": "---\ncategories: [Release]\n---\nHi.\n",
            "_posts/2999-01-01-later.md": "---\ntitle: Later\n---\nSoon.\n",
        },
    )
    hello = one(export, "hello.md")
    assert hello.title == "Hello"
    assert hello.old_addresses == ["/release/2016/05/06/hello.html"]
    assert one(export, "later.md").status == SCHEDULED


def test_liquid_becomes_links_code_and_text_never_raw(tmp_path):
    export = site(
        tmp_path,
        {
            "_config.yml": "permalink: pretty\n",
            "_posts/2020-01-01-first.md": "---\ntitle: First\n---\nThe first.\n",
            "_posts/2020-01-02-second.md": (
                "---\ntitle: Second\n---\n"
                "See [the first]({% post_url 2020-01-01-first %}) and "
                "[the docs]({{ '/docs/' | relative_url }}).\n\n"
                "{% highlight ruby linenos %}\nputs {{ 1 }}\n{% endhighlight %}\n\n"
                "{% include footer.html %}{% if site.x %}Kept words{% endif %}\n\n"
                "{% raw %}`{% post_url %}`{% endraw %} {{ page.title }} {{ paginator.next_page }}\n"
            ),
        },
    )
    second = one(export, "second.md")
    html = second.body_html
    assert '<a href="/2020/01/01/first/">the first</a>' in html
    assert '<a href="/docs/">the docs</a>' in html
    assert '<pre><code class="language-ruby">puts {{ 1 }}\n</code></pre>' in html
    assert "Kept words" in html
    assert "<code>{% post_url %}</code> Second" in html
    assert "{% include" not in html and "{% if" not in html and "paginator" not in html
    assert "An {% include %} of the old site's theme (footer.html) was left out." in second.notes
    assert any("Liquid value {{ paginator.next_page }}" in note for note in second.notes)


def test_a_post_that_printed_its_own_title_is_not_headed_twice(tmp_path):
    # As on Tom Preston-Werner's Jekyll blog (mojombo.github.io, 2008–2016): the theme had no
    # title, so each post began with the title as a Markdown heading, and a date line.
    export = site(
        tmp_path,
        {
            "_config.yml": "title: Tom's blog\n",
            "_posts/2008-10-18-turned-down.md": (
                "---\nlayout: post\ntitle: How I Turned Down $300,000 & Went Full-Time\n---\n\n"
                "{{ page.title }}\n================\n\n"
                '<p class="meta">{{ page.date }} - San Francisco, on {{ site.title }}</p>\n\n'
                "2008 is a leap year.\n"
            ),
        },
    )
    post = one(export, "turned-down.md")
    assert post.body_html.startswith('<p class="meta">18 Oct 2008 - San Francisco, on Tom')
    assert "=====" not in post.body_html and "<h1>" not in post.body_html
    assert "<p>2008 is a leap year.</p>" in post.body_html
    assert not any("Liquid" in note for note in post.notes)


def test_a_hugo_site_with_toml_bundles_permalinks_and_shortcodes(tmp_path):
    export = site(
        tmp_path,
        {
            "hugo.toml": 'baseURL = "https://hugo.example/"\ntimeZone = "America/New_York"\n'
            '[permalinks]\n  posts = "/:year/:month/:slug/"\n',
            "content/_index.md": "+++\ntitle = 'Home'\n+++\n",
            "content/about.md": "+++\ntitle = 'About'\n+++\nA page.\n",
            "content/posts/_index.md": "+++\ntitle = 'Posts'\n+++\n",
            "content/posts/first-bundle/index.md": (
                "+++\ntitle = 'A bundle'\ndate = 2021-03-04T09:00:00\ndraft = false\n"
                "tags = ['Go', 'Hugo']\ncategories = 'News'\n+++\n"
                '{{< figure src="pic.png" alt="A pic" caption="Its caption" >}}\n\n'
                '{{< youtube "dQw4w9WgXcQ" >}}\n\n'
                '{{< highlight go "linenos=table" >}}\nfmt.Println("hi")\n{{< /highlight >}}\n\n'
                "{{% notice info %}}Inner words{{% /notice %}}\n\n"
                'See [the second]({{< ref "posts/second.md" >}}) {{< gh 123 >}}\n\n'
                "Shown as text: {{</* gh 1 */>}}\n"
            ),
            "content/posts/first-bundle/notes.md": "a resource of the bundle\n",
            "content/posts/second.md": (
                "---\ntitle: Second\ndraft: true\nslug: two\ndate: 2021-04-01\n---\nB\n"
            ),
        },
    )
    assert [p.source_id for p in export.posts] == [
        "content/posts/first-bundle/index.md",
        "content/posts/second.md",
    ]
    assert ("content/about.md", "a page of the site") in export.skipped
    bundle = export.posts[0]
    assert bundle.slug == "first-bundle"
    assert bundle.published_at.isoformat() == "2021-03-04T14:00:00+00:00"
    assert bundle.old_addresses == ["/2021/03/a-bundle/"]
    assert [t.name for t in bundle.topics] == ["News", "Go", "Hugo"]
    html = bundle.body_html
    assert '<img src="pic.png" alt="A pic"><figcaption>Its caption</figcaption>' in html
    assert "https://www.youtube.com/watch?v=dQw4w9WgXcQ" in html
    assert '<code class="language-go">fmt.Println(&quot;hi&quot;)' in html
    assert "Inner words" in html
    assert '<a href="/2021/03/two/">the second</a>' not in html  # a draft's address: no link
    assert "{{&lt; gh 1 &gt;}}" in html or "{{< gh 1 >}}" in html
    assert "{{<" not in html.replace("{{< gh 1 >}}", "").replace("{{&lt; gh 1", "")
    second = export.posts[1]
    assert (
        second.status == DRAFT
        and second.old_addresses == ["/2021/03/two/"]
        or (second.status == DRAFT)
    )


def ghost_export(**changes):
    document = json.loads((FIXTURES / "real" / "ghost-4.1" / "export.json").read_text())
    data = document["db"][0]["data"]
    post = data["posts"][0]
    post.update(changes.get("post", {}))
    data["tags"] += changes.get("tags", [])
    data["posts_tags"] += changes.get("posts_tags", [])
    data["users"] += changes.get("users", [])
    data["posts_authors"] += changes.get("posts_authors", [])
    data["settings"] += changes.get("settings", [])
    return json.dumps(document).encode()


def test_ghost_members_only_posts_are_not_public_and_code_injection_is_noted():
    post_id = "605ac141a2d5a6aa9e101ebd"
    export = parse_ghost(
        ghost_export(
            post={"visibility": "paid", "codeinjection_head": "<script>x()</script>"},
            settings=[{"key": "codeinjection_foot", "value": "<script>y()</script>"}],
        )
    )
    post = next(p for p in export.posts if p.source_id == post_id)
    assert post.status == LIVE and post.members_only
    assert any("Only Ghost members could read it" in note for note in post.notes)
    assert "Its code injection was not imported: scripts and styles are never carried." in (
        post.notes
    )
    assert (
        "The site's code injection (foot)",
        "not imported: scripts and styles from the old site are never carried over",
    ) in export.skipped


def test_ghost_authors_in_order_internal_tags_left_out_featured_and_email_only_posts():
    post_id = "605ac141a2d5a6aa9e101ebd"
    export = parse_ghost(
        ghost_export(
            post={"featured": True},
            tags=[{"id": "t-int", "name": "#hero", "slug": "hash-hero", "visibility": "internal"}],
            posts_tags=[{"post_id": post_id, "tag_id": "t-int", "sort_order": 1}],
            users=[{"id": "u2", "name": "Second Author", "slug": "second"}],
            posts_authors=[
                {"post_id": post_id, "author_id": "u2", "sort_order": 0},
                {"post_id": post_id, "author_id": "5951f5fca366002ebd5dbef7", "sort_order": 1},
            ],
        )
    )
    post = next(p for p in export.posts if p.source_id == post_id)
    assert post.featured
    assert [a.name for a in post.authors] == ["Second Author", "Ghost"]
    assert [t.name for t in post.topics] == ["Getting Started"]
    sent = parse_ghost(ghost_export(post={"status": "sent"}))
    email_only = next(p for p in sent.posts if p.source_id == post_id)
    assert email_only.status == DRAFT
    assert any("sent by email only" in note for note in email_only.notes)


def test_hugo_shortcodes_for_videos_posts_and_gists_become_embeds_and_links():
    notes = []
    body = (
        '{{< vimeo 146022717 >}}\n\n{{< tweet user="gohugoio" id="877500564405444608" >}}\n\n'
        "{{< gist spf13 7896402 >}}\n\n{{< instagram BWNjjyYFxVx >}}\n\n"
        '{{< details summary="More" >}}Hidden words{{< /details >}}\n\n'
        '{{< ref "missing.md" >}} {{< /orphan >}}'
    )
    text = expand_templates(body, {}, notes, "hugo")
    assert '<figure class="wp-block-embed">https://vimeo.com/146022717</figure>' in text
    assert "<https://x.com/gohugoio/status/877500564405444608>" in text
    assert "<https://gist.github.com/spf13/7896402>" in text
    assert "<https://www.instagram.com/p/BWNjjyYFxVx/>" in text
    assert "**More**" in text and "Hidden words" in text
    assert "{{" not in text
    assert any("A Hugo ref named “missing.md”, which is not in the export" in n for n in notes)


def test_an_unknown_liquid_tag_and_include_relative_are_left_out_with_a_note():
    notes = []
    text = expand_templates(
        "A {% youtube abc %} B {% include_relative part.md %} {{ site.url }}/x", {}, notes, ""
    )
    assert text == "A  B  /x"
    assert "A Liquid tag {% youtube %} has no equivalent here; it was left out." in notes
    assert "An {% include_relative %} of the old site's theme (part.md) was left out." in notes
