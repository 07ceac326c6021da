"""Several identical app servers behind an imaginary load balancer: whatever one server does,
the next request to another server sees. Servers, schedulers, Redis and SeaweedFS are real
processes on loopback (see conftest.py); the outage tests come last because they stop things."""

import io
import json

import pytest
import requests
from PIL import Image as PILImage

from .cluster import BUCKET, image_sources, object_key, wait_for
from .conftest import REPLICA_TITLE

# django_db: pytest-django only builds the test database (the cluster's template) when asked.
# make test runs these in one process, in file order (not on pytest-xdist workers).
pytestmark = [pytest.mark.scale, pytest.mark.postgres, pytest.mark.django_db]

PICTURE_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"RIFF", b"GIF8")


def read(base, path, session=None):
    response = (session or requests).get(base + path, timeout=30)
    assert response.status_code < 500, f"{base}{path} answered {response.status_code}"
    return response


def fetch_picture(url):
    response = requests.get(url, timeout=10)
    assert response.status_code == 200, f"{url} answered {response.status_code}"
    assert response.content.startswith(PICTURE_MAGIC), f"{url} is not a picture"
    return response


def test_a_post_published_on_server_a_is_on_server_b_at_the_next_request(cluster, editor):
    assert read(cluster.b, cluster.draft_url).status_code == 404
    assert cluster.draft_url not in read(cluster.b, "/search/?q=Fresh").text

    published = editor.publish(cluster.a, cluster.draft_id)
    assert published.status_code == 200, published.text[-500:]

    for path in (cluster.blog_url, cluster.topic_url, cluster.draft_url):
        page = read(cluster.b, path)
        assert page.status_code == 200, path
        assert "Fresh from server A" in page.text, path


def test_a_post_published_on_server_a_is_found_by_search_on_server_b(cluster, editor):
    # Runs after the publishing test above, which published this post on server A.
    results = read(cluster.b, "/search/?q=Fresh")
    # The matched word is highlighted (<mark>Fresh</mark> from server A): look for the link.
    assert f'href="{cluster.draft_url}"' in results.text
    assert "1 result for" in results.text


def test_the_editor_signed_in_on_server_a_is_signed_in_on_server_b(cluster, editor):
    dashboard = editor.get(cluster.b, "/admin/")
    assert dashboard.status_code == 200
    assert "/admin/login/" not in dashboard.url
    assert "Dashboard" in dashboard.text


def png_bytes(size=(640, 400)):
    buffer = io.BytesIO()
    PILImage.new("RGB", size, (200, 90, 20)).save(buffer, format="PNG")
    return buffer.getvalue()


def test_an_image_uploaded_through_server_a_is_shown_by_server_b(cluster, editor):
    # A multipart POST to the admin's "Add an image" form, as the editor's browser sends it.
    uploaded = editor.upload_image(
        cluster.a, "Rack diagram", png_bytes(), "rack-diagram.png", cluster.collection_id
    )
    assert uploaded.status_code == 200 and "/admin/images/" in uploaded.url, uploaded.text[-500:]
    image_id, original = cluster.db.scalar(
        "SELECT json_build_array(id, file) FROM wagtailimages_image WHERE title = %s",
        ("Rack diagram",),
    )
    # The original is in the shared bucket, not on server A's disk.
    assert cluster.rig.s3_client().head_object(Bucket=BUCKET, Key=original)["ContentLength"] > 0

    edit_page = editor.get(cluster.b, f"/admin/images/{image_id}/")
    assert edit_page.status_code == 200
    previews = [src for src in image_sources(edit_page.text) if "rack-diagram" in src]
    assert previews, "server B's edit page shows no rendition of the uploaded image"
    for src in previews:
        fetch_picture(src)


def test_a_rendition_made_by_server_a_is_reused_by_server_b(cluster):
    path = cluster.posts["GPU burn-in notes"]
    on_a = [object_key(src) for src in image_sources(read(cluster.a, path).text)]
    renditions = cluster.db.scalar("SELECT count(*) FROM wagtailimages_rendition")

    on_b = [object_key(src) for src in image_sources(read(cluster.b, path).text)]

    assert on_a and on_b == on_a
    assert cluster.db.scalar("SELECT count(*) FROM wagtailimages_rendition") == renditions
    for src in image_sources(read(cluster.b, path).text):
        fetch_picture(src)


def test_an_anonymous_reader_reads_from_the_replica_and_an_editor_from_the_primary(cluster, editor):
    path = cluster.posts["Cooling loops at scale"]
    assert REPLICA_TITLE in read(cluster.c, path).text

    editor.log_in(cluster.c)  # a POST by an anonymous visitor: it writes, so the primary
    as_editor = read(cluster.c, path, session=editor.http)
    assert "Cooling loops at scale" in as_editor.text
    assert REPLICA_TITLE not in as_editor.text
    # The admin never reads from the replica either.
    assert REPLICA_TITLE not in editor.get(cluster.c, "/admin/pages/search/?q=Cooling").text


def test_posts_scheduled_together_go_live_once_with_two_schedulers_running(cluster):
    ids = json.loads(
        cluster.rig.run_python("from tests.scale.seed import schedule; schedule(6, 6)")
    )
    wait_for(
        lambda: (
            cluster.db.scalar(
                "SELECT count(*) FROM wagtailcore_page WHERE id = ANY(%s) AND live", (ids,)
            )
            == len(ids)
        ),
        "the scheduled posts going live",
        timeout=60,
    )
    # More passes after the last post went live, finished (two distinct starts, as both
    # schedulers run): none of them may publish a post again.
    all_live_at = cluster.db.scalar("SELECT now()")
    passes_since = set()

    def passes_finished_since():
        with cluster.db.connect() as conn:
            started, succeeded = conn.execute(
                "SELECT last_started_at, last_success_at FROM blog_schedulerheartbeat"
            ).fetchone()
        if started > all_live_at and succeeded and succeeded >= started:
            passes_since.add(started)
        return len(passes_since) >= 2

    wait_for(passes_finished_since, "two scheduler passes after the posts went live", interval=0.1)

    with cluster.db.connect() as conn:
        counts = dict(
            conn.execute(
                "SELECT page_id, count(*) FROM wagtailcore_pagelogentry "
                "WHERE action = 'wagtail.publish.scheduled' AND page_id = ANY(%s) "
                "GROUP BY page_id",
                (ids,),
            ).fetchall()
        )
    assert counts == dict.fromkeys(ids, 1), f"publications per post: {counts}"
    assert "Scheduled 05" in read(cluster.b, cluster.blog_url).text


def test_pages_render_while_redis_is_down_and_caching_resumes_when_it_returns(cluster, editor):
    rig = cluster.rig
    read(cluster.b, cluster.blog_url)
    assert rig.redis_keys() > 0

    rig.stop_redis()
    for base in (cluster.a, cluster.b):
        for path in (cluster.blog_url, cluster.topic_url, cluster.posts["GPU burn-in notes"]):
            assert read(base, path).status_code == 200
    # Sessions are written through to PostgreSQL: losing Redis signs nobody out.
    dashboard = editor.get(cluster.b, "/admin/")
    assert dashboard.status_code == 200 and "/admin/login/" not in dashboard.url

    rig.start_redis()
    wait_for(
        lambda: read(cluster.b, cluster.blog_url).status_code == 200 and rig.redis_keys() > 0,
        "caching again after Redis came back",
        timeout=30,
    )


def test_pages_render_while_the_object_store_is_down_and_pictures_return_with_it(cluster, editor):
    rig = cluster.rig
    path = cluster.posts["Kept for the outage"]
    alt_text = "Drawing for Kept for the outage"

    rig.stop_object_store()
    for base in (cluster.a, cluster.b):
        listing = read(base, cluster.blog_url)
        assert listing.status_code == 200
        assert image_sources(listing.text), "stored renditions keep their URLs"
    # This post's big picture was never rendered: it cannot be made now, so the alt text shows.
    post = read(cluster.b, path)
    assert post.status_code == 200
    assert alt_text in post.text
    assert any(
        src.rstrip("/").split("?")[0].endswith("not-found") for src in image_sources(post.text)
    )

    # An editor's upload meanwhile is refused in words, and leaves no image without a file.
    refused = editor.upload_image(
        cluster.a, "Outage diagram", png_bytes(), "outage-diagram.png", cluster.collection_id
    )
    assert refused.status_code == 503
    assert "Media storage is unavailable" in refused.text
    assert "Nothing was saved" in refused.text
    # The admin's drag-and-drop uploader posts the same way; its page says "upload failed".
    refused = editor.post_form(
        cluster.a,
        "/admin/images/multiple/add/",
        {"title": "Outage diagram", "collection": str(cluster.collection_id)},
        files={"files[]": ("outage-diagram.png", png_bytes(), "image/png")},
    )
    assert refused.status_code == 503
    count = "SELECT count(*) FROM wagtailimages_image WHERE title = %s"
    assert cluster.db.scalar(count, ("Outage diagram",)) == 0

    rig.start_object_store()

    def picture_is_back():
        sources = image_sources(read(cluster.b, path).text)
        return sources and all("not-found" not in src for src in sources)

    wait_for(picture_is_back, "the post's picture after the store came back", timeout=30)
    for src in image_sources(read(cluster.b, path).text):
        fetch_picture(src)
    # The same upload goes through once the store is back, without restarting anything.
    accepted = editor.upload_image(
        cluster.a, "Outage diagram", png_bytes(), "outage-diagram.png", cluster.collection_id
    )
    assert accepted.status_code == 200 and "/admin/images/" in accepted.url
    assert cluster.db.scalar(count, ("Outage diagram",)) == 1
