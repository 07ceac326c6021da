"""Exports of many posts written by the tests (and by `make bench`'s import rows): a WordPress
WXR and a Ghost JSON, each post with a hero picture, a body with a picture, a heading, code and a
link to the post before it. Plain Python, no pytest: the benchmark (tests/bench/run.py) imports it too."""

import json
from xml.sax.saxutils import escape

from PIL import Image as PILImage

OLD_SITE = "https://old.example"
PICTURES = 5


def draw(path, size=(64, 36)):
    path.parent.mkdir(parents=True, exist_ok=True)
    PILImage.new("RGB", size, (18, 63, 140)).save(path, format="PNG")
    return path


def wordpress_export(
    folder, count, *, first_status="publish", pictures=PICTURES, picture_size=(64, 36)
):
    """`count` published posts (the first with `first_status`), three categories, ten tags,
    sharing `pictures` pictures of `picture_size` in wp-content/uploads."""
    uploads = folder / "wp-content" / "uploads" / "2024" / "01"
    for n in range(pictures):
        draw(uploads / f"picture-{n}.png", picture_size)
    attachments = "".join(
        f"<item><title>picture {n}</title><wp:post_id>{100_000 + n}</wp:post_id>"
        f"<wp:attachment_url>{OLD_SITE}/wp-content/uploads/2024/01/picture-{n}.png"
        "</wp:attachment_url><wp:status>inherit</wp:status>"
        "<wp:post_type>attachment</wp:post_type><wp:postmeta>"
        "<wp:meta_key>_wp_attachment_image_alt</wp:meta_key>"
        f"<wp:meta_value>Blue test card number {n}</wp:meta_value></wp:postmeta></item>"
        for n in range(pictures)
    )
    items = []
    for n in range(1, count + 1):
        body = (
            f"<!-- wp:paragraph --><p>Post {n} opens with <strong>bold</strong> words and "
            f'<a href="{OLD_SITE}/2024/01/post-{max(1, n - 1)}/">a link back</a>.</p>'
            "<!-- /wp:paragraph --><h2>What we measured</h2>"
            "<p>Checkpoint intervals and restore latency, in plain words.</p>"
            '<!-- wp:code {"language":"python"} --><pre class="wp-block-code"><code>'
            "print('restore')</code></pre>"
            f'<figure class="wp-block-image"><img src="{OLD_SITE}/wp-content/uploads/2024/01/'
            f'picture-{(n + 1) % pictures}.png" alt="Another card"/>'
            "<figcaption>A caption</figcaption></figure>"
        )
        status = first_status if n == 1 else "publish"
        items.append(
            f"<item><title>Migrated post {n}</title><link>{OLD_SITE}/2024/01/post-{n}/</link>"
            f"<dc:creator>writer</dc:creator>"
            f"<content:encoded><![CDATA[{body}]]></content:encoded>"
            f"<excerpt:encoded>Summary of migrated post {n}.</excerpt:encoded>"
            f"<wp:post_id>{n}</wp:post_id>"
            f"<wp:post_date_gmt>2024-01-{1 + n % 28:02d} {n % 24:02d}:{n % 60:02d}:00"
            f"</wp:post_date_gmt><wp:post_name>post-{n}</wp:post_name>"
            f"<wp:status>{status}</wp:status><wp:post_type>post</wp:post_type>"
            f'<category domain="category" nicename="area-{n % 3}">Area {n % 3}</category>'
            f'<category domain="post_tag" nicename="tag-{n % 10}">Tag {n % 10}</category>'
            "<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key>"
            f"<wp:meta_value>{100_000 + n % pictures}</wp:meta_value></wp:postmeta></item>"
        )
    export = folder / "export.xml"
    export.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" '
        'xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" '
        'xmlns:content="http://purl.org/rss/1.0/modules/content/" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">'
        f"<channel><title>Old blog</title><link>{OLD_SITE}</link>"
        f"<wp:base_site_url>{OLD_SITE}</wp:base_site_url>"
        "<wp:author><wp:author_login>writer</wp:author_login>"
        "<wp:author_display_name>Wren Writer</wp:author_display_name></wp:author>"
        f"{attachments}{''.join(items)}</channel></rss>",
        encoding="utf-8",
    )
    return export


def ghost_export(folder, count):
    """`count` published Ghost posts with two tags each and one author."""
    images = folder / "content" / "images" / "2024" / "01"
    for n in range(PICTURES):
        draw(images / f"picture-{n}.png")
    posts, posts_tags = [], []
    for n in range(1, count + 1):
        picture = f"__GHOST_URL__/content/images/2024/01/picture-{n % PICTURES}.png"
        posts.append(
            {
                "id": f"ghost-{n}",
                "title": f"Ghostly post {n}",
                "slug": f"ghostly-{n}",
                "type": "post",
                "status": "published",
                "visibility": "public",
                "html": (
                    f"<p>Ghost post {n}, after <a href='__GHOST_URL__/ghostly-{max(1, n - 1)}/'>"
                    f"the one before</a>.</p><h2>Details</h2>"
                    f'<figure class="kg-card kg-image-card"><img src="{escape(picture)}" '
                    'alt="A card"><figcaption>Caption</figcaption></figure>'
                ),
                "feature_image": picture,
                "custom_excerpt": f"Summary of ghostly post {n}.",
                "published_at": f"2024-02-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:00.000Z",
                "featured": 0,
            }
        )
        posts_tags += [
            {"post_id": f"ghost-{n}", "tag_id": f"tag-{n % 4}", "sort_order": 0},
            {"post_id": f"ghost-{n}", "tag_id": "tag-all", "sort_order": 1},
        ]
    data = {
        "posts": posts,
        "posts_meta": [
            {"post_id": post["id"], "feature_image_alt": "A blue card"} for post in posts
        ],
        "tags": [{"id": f"tag-{n}", "name": f"Theme {n}", "slug": f"theme-{n}"} for n in range(4)]
        + [{"id": "tag-all", "name": "Everything", "slug": "everything"}],
        "posts_tags": posts_tags,
        "users": [{"id": "ghost-writer", "name": "Gale Writer", "slug": "gale"}],
        "posts_authors": [
            {"post_id": post["id"], "author_id": "ghost-writer", "sort_order": 0} for post in posts
        ],
    }
    export = folder / "ghost.json"
    export.write_text(json.dumps({"db": [{"meta": {"version": "5.80.0"}, "data": data}]}))
    return export
