"""Each process keeps what it read from the shared cache in its own memory, never longer than
the shared cache keeps it, and within a fixed number of entries."""

from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.utils import timezone

from blog.caching.generation import remember_until_changed
from blog.caching.memory import fetch, keep, local_memory

pytestmark = pytest.mark.django_db


def test_a_value_read_once_is_served_from_the_process_without_the_shared_cache(content_cache):
    keep({"answer": 42}, 60)
    local_memory.clear()  # as in another process, which has only the shared copy
    assert fetch(["answer", "unknown"]) == {"answer": 42}
    cache.clear()
    assert fetch(["answer"]) == {"answer": 42}


def test_the_process_keeps_a_value_no_longer_than_the_shared_cache_does(content_cache):
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        keep({"answer": 42}, 30)
        local_memory.clear()
        fetch(["answer"])  # read from the shared copy, with the deadline it was stored with
    with time_machine.travel(now + timedelta(seconds=29), tick=False):
        assert fetch(["answer"]) == {"answer": 42}
    with time_machine.travel(now + timedelta(seconds=31), tick=False):
        cache.set("answer", ("from a later build", 10**12))  # the shared copy, built again
        assert fetch(["answer"]) == {"answer": "from a later build"}


def test_an_answer_cut_short_by_an_expiry_is_rebuilt_when_it_passes(content_cache):
    now = timezone.now()
    builds = iter(["before the expiry", "after the expiry"])
    with time_machine.travel(now, tick=False):
        assert remember_until_changed("ranking", lambda: next(builds), lambda: 5) == (
            "before the expiry"
        )
    with time_machine.travel(now + timedelta(seconds=6), tick=False):
        assert remember_until_changed("ranking", lambda: next(builds), lambda: 5) == (
            "after the expiry"
        )


def test_another_process_never_reads_a_value_past_its_deadline(content_cache):
    """The shared cache keeps whole seconds; a value cut short by a post's expiry at 2.5 s must
    not be read at 2.7 s by a process that did not keep it."""
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        keep({"answer": 42}, 2.5)
    local_memory.clear()
    with time_machine.travel(now + timedelta(seconds=2.7), tick=False):
        assert fetch(["answer"]) == {}


def test_the_process_keeps_only_the_most_recently_used_entries(content_cache, settings):
    settings.CONTENT_CACHE_LOCAL_ENTRIES = 2
    keep({"first": 1, "second": 2}, 60)
    local_memory.get_many(["first"])  # used again: "second" is now the oldest
    keep({"third": 3}, 60)
    assert local_memory.get_many(["first", "second", "third"]) == {"first": 1, "third": 3}
    assert fetch(["second"]) == {"second": 2}  # still shared


def test_with_no_room_in_the_process_everything_comes_from_the_shared_cache(
    content_cache, settings
):
    settings.CONTENT_CACHE_LOCAL_ENTRIES = 0
    keep({"answer": 42}, 60)
    assert local_memory.get_many(["answer"]) == {}
    assert fetch(["answer"]) == {"answer": 42}
