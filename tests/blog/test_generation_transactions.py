"""The content generation follows what commits: a change rolled back retires nothing.

With real transactions (not the test's one wrapping transaction), so that a commit and a
rollback happen as they do for an editor's request."""

import pytest
from django.db import transaction

from blog.caching.generation import current_generation, stored_snapshot
from tests.factories import publish_post

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


class EditorGaveUp(Exception):
    """A request that fails after writing, so its transaction is rolled back."""


def test_a_rolled_back_change_does_not_move_the_content_generation(
    content_cache, blog, author, topic
):
    post = publish_post(blog, "Kept as it was", authors=[author], topics=[topic])
    before = current_generation(), stored_snapshot().value

    with pytest.raises(EditorGaveUp), transaction.atomic():
        post.title = "Never committed"
        post.save()
        topic.name = "Never committed either"
        topic.save()
        raise EditorGaveUp

    assert (current_generation(), stored_snapshot().value) == before

    with transaction.atomic():
        post.title = "Committed"
        post.save()
    assert current_generation() != before[0]
    assert stored_snapshot().value != before[1]
