"""One count of a post's words: the reading time, the editor's counter and the preview's Checks
all take it from BlogPage.word_count (issue #33, point 6)."""

import pytest
from wagtail.test.utils.form_data import nested_form_data, rich_text, streamfield

from blog.models import BlogPage

pytestmark = pytest.mark.django_db

COUNT_URL = "/admin/blog/posts/word-count/"


def test_paragraphs_of_one_rich_text_block_are_not_run_together():
    post = BlogPage(body=[("paragraph", "<p>One two.</p><p>Three.</p><h2>Four</h2>")])
    assert post.body_text() == "One two. Three. Four"
    assert post.word_count() == 4


def test_a_pictures_alt_text_and_a_code_blocks_language_are_not_counted(hero_image):
    post = BlogPage(
        body=[
            ("image", {"image": hero_image, "alt_text": "Three words here", "caption": "Seen"}),
            ("code", {"language": "python", "code": "print(1)", "caption": ""}),
        ]
    )
    assert post.word_count() == 2  # the caption and the code


def test_the_editor_gets_the_count_of_the_body_it_is_writing(admin_client):
    body = streamfield(
        [
            ("heading", {"text": "What we saved", "anchor": "saved-state"}),
            ("paragraph", rich_text("<p>The optimizer state.</p><p>In a new layout.</p>")),
        ]
    )
    response = admin_client.post(COUNT_URL, nested_form_data({"title": "x", "body": body}))
    assert response.status_code == 200
    assert response.json() == {"words": 10, "minutes": 1}


def test_a_form_without_a_body_is_a_bad_request(admin_client):
    assert admin_client.post(COUNT_URL, {"title": "no body"}).status_code == 400
    assert admin_client.post(COUNT_URL, {"body-count": "many"}).status_code == 400


def test_only_signed_in_editors_may_ask(client):
    response = client.post(COUNT_URL, {"body-count": "0"})
    assert response.status_code == 302
