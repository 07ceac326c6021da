"""Schedulers as separate processes and threads: two at once, and a clean stop on SIGTERM."""

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import connection
from django.utils import timezone
from wagtail.models import Revision
from wagtail.signals import page_published

from blog.editorial import scheduling
from blog.models import SchedulerHeartbeat
from tests.factories import make_author, make_topic

from .scheduling import schedule_post, scheduled_log_entries

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

PROJECT_DIR = Path(__file__).resolve().parents[2]


def due_posts(blog, count):
    """`count` posts scheduled an hour ago for a go-live time that has just passed."""
    author, topic = make_author("Ada Lovelace"), make_topic("GPU reliability")
    go_live = timezone.now() - timedelta(seconds=1)
    with time_machine.travel(go_live - timedelta(hours=1), tick=False):
        return [
            schedule_post(blog, f"Post {n}", go_live, authors=[author], topics=[topic])
            for n in range(count)
        ]


def run_schedulers_at_once(count):
    barrier = threading.Barrier(count)
    results, errors = [], []

    def scheduler():
        try:
            barrier.wait(timeout=10)
            results.append(scheduling.run_pass(interval=30))
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=scheduler) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    return results


@pytest.fixture
def published_signals():
    seen = Counter()

    def count(sender, instance, **kwargs):
        seen[instance.pk] += 1

    page_published.connect(count, dispatch_uid="test-count-published")
    yield seen
    page_published.disconnect(dispatch_uid="test-count-published")


def test_two_schedulers_at_once_publish_each_post_exactly_once(blog, published_signals):
    posts = due_posts(blog, 3)
    published_signals.clear()  # scheduling them sent the signal too
    results = run_schedulers_at_once(2)
    assert sum(result.published for result in results) == 3
    for post in posts:
        assert scheduled_log_entries(post, "wagtail.publish.scheduled") == 1
        assert published_signals[post.pk] == 1


def test_row_locks_alone_keep_overlapping_passes_from_publishing_twice(
    blog, published_signals, monkeypatch
):
    """Even if both passes ran (no pass lock), each post is published once."""
    posts = due_posts(blog, 3)
    published_signals.clear()
    monkeypatch.setattr(scheduling, "pass_lock", lambda: contextlib.nullcontext(True))
    real_publish = Revision.publish

    def slow_publish(revision, *args, **kwargs):
        time.sleep(0.3)  # long enough for the other pass to reach the same post
        return real_publish(revision, *args, **kwargs)

    monkeypatch.setattr(Revision, "publish", slow_publish)
    results = run_schedulers_at_once(2)
    assert [result.skipped for result in results] == [False, False]
    assert sum(result.published for result in results) == 3
    for post in posts:
        assert scheduled_log_entries(post, "wagtail.publish.scheduled") == 1
        assert published_signals[post.pk] == 1


def test_sigterm_stops_a_running_scheduler_cleanly(blog):
    database = connection.settings_dict
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}"
        f":{database['PORT'] or 5432}/{database['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    scheduler = subprocess.Popen(  # noqa: S603 - our own manage.py with fixed arguments
        [sys.executable, "manage.py", "run_scheduler", "--interval", "1"],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while SchedulerHeartbeat.current() is None:
            assert scheduler.poll() is None, scheduler.stdout.read()
            assert time.monotonic() < deadline, "the scheduler never ran a pass"
            time.sleep(0.2)
        stopped_at = time.monotonic()
        scheduler.send_signal(signal.SIGTERM)
        output, _ = scheduler.communicate(timeout=10)
    finally:
        if scheduler.poll() is None:
            scheduler.kill()
    assert scheduler.returncode == 0, output
    assert time.monotonic() - stopped_at < 5
    assert "published 0, unpublished 0, failed 0" in output
    assert "Scheduler stopped." in output
