"""Schedulers as separate processes and threads: two at once, a pass that meets a database
error, and a clean stop on SIGTERM."""

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
from unittest.mock import Mock

import pytest
import time_machine
from django.db import OperationalError, connection
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


def in_thread(work):
    """Run `work` in a thread with a database connection of its own; returns (thread, result)
    where result holds its return value or its exception once the thread is done."""
    result = {}

    def run():
        try:
            result["value"] = work()
        except Exception as error:  # noqa: BLE001 - the test asserts on it
            result["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result


def test_row_locks_alone_keep_overlapping_passes_from_publishing_twice(
    blog, published_signals, monkeypatch
):
    """Even if both passes ran (no pass lock), each post is published once. Whichever pass
    locks a post holds it until the other pass has tried the same post, so the two overlap on
    every post on every run."""
    posts = due_posts(blog, 3)
    published_signals.clear()
    monkeypatch.setattr(scheduling, "pass_lock", lambda: contextlib.nullcontext(True))
    tried_by_the_other = {post.latest_revision_id: threading.Event() for post in posts}
    real_attempt, real_publish = scheduling.publish_due_revision, Revision.publish

    def attempt(revision_id, now):
        published = real_attempt(revision_id, now)
        if not published:
            tried_by_the_other[revision_id].set()
        return published

    def publish_once_the_other_pass_tried(revision, *args, **kwargs):
        reached = tried_by_the_other[revision.pk].wait(timeout=30)
        assert reached, f"the other pass never reached revision {revision.pk} while it was locked"
        return real_publish(revision, *args, **kwargs)

    monkeypatch.setattr(scheduling, "publish_due_revision", attempt)
    monkeypatch.setattr(Revision, "publish", publish_once_the_other_pass_tried)
    results = run_schedulers_at_once(2)
    assert [result.skipped for result in results] == [False, False]
    assert [result.failed for result in results] == [0, 0]
    assert sum(result.published for result in results) == 3
    assert all(event.is_set() for event in tried_by_the_other.values())
    for post in posts:
        assert scheduled_log_entries(post, "wagtail.publish.scheduled") == 1
        assert published_signals[post.pk] == 1


def test_a_second_scheduler_skips_the_pass_another_is_running(blog, monkeypatch):
    """The README's promise for several schedulers: while one runs a pass, another skips it
    (and its after-pass work), rather than walking the same posts at the same time."""
    posts = due_posts(blog, 3)
    first_publish_started, let_it_finish = threading.Event(), threading.Event()
    real_publish = Revision.publish

    def publish(revision, *args, **kwargs):
        if not first_publish_started.is_set():
            first_publish_started.set()
            assert let_it_finish.wait(timeout=30)
        return real_publish(revision, *args, **kwargs)

    monkeypatch.setattr(Revision, "publish", publish)
    running, first = in_thread(lambda: scheduling.run_pass(interval=30))
    try:
        assert first_publish_started.wait(timeout=30), "the first pass never began publishing"
        waiting, second = in_thread(lambda: scheduling.run_pass(interval=30))
        waiting.join(timeout=30)
    finally:
        let_it_finish.set()
        running.join(timeout=60)
    assert "error" not in second and "error" not in first, (first, second)
    assert second["value"].skipped
    assert second["value"].summary == "skipped: another scheduler is running a pass"
    assert first["value"].published == len(posts)
    for post in posts:
        assert scheduled_log_entries(post, "wagtail.publish.scheduled") == 1


def test_a_pass_stopped_by_a_database_error_is_recorded_and_frees_the_lock(blog, monkeypatch):
    """The health panel shows why the pass stopped, and the next pass (here from another
    process's connection, while the failed one is still open) is not skipped."""
    post = due_posts(blog, 1)[0]
    real_due = scheduling.due_revision_ids
    failing = [True]

    def due_revision_ids(now):
        if failing[0]:
            raise OperationalError("server closed the connection unexpectedly")
        return real_due(now)

    monkeypatch.setattr(scheduling, "due_revision_ids", due_revision_ids)
    failed_pass_done, other_pass_done = threading.Event(), threading.Event()

    def fail_and_keep_the_connection():
        try:
            return scheduling.run_pass(interval=30)
        finally:
            failed_pass_done.set()
            other_pass_done.wait(timeout=60)

    failing_thread, failed = in_thread(fail_and_keep_the_connection)
    try:
        assert failed_pass_done.wait(timeout=30)
        failing[0] = False
        next_thread, following = in_thread(lambda: scheduling.run_pass(interval=30))
        next_thread.join(timeout=60)
    finally:
        other_pass_done.set()
        failing_thread.join(timeout=60)
    assert isinstance(failed.get("error"), OperationalError)
    assert "error" not in following, following
    assert not following["value"].skipped
    assert following["value"].published == 1
    assert scheduled_log_entries(post, "wagtail.publish.scheduled") == 1
    heartbeat = SchedulerHeartbeat.current()
    assert "The pass stopped: server closed the connection unexpectedly" in heartbeat.last_error


def test_a_failure_the_heartbeat_cannot_record_is_logged_and_the_error_kept(
    blog, monkeypatch, caplog
):
    """With the database gone, recording the failure fails too: the scheduler logs that and
    raises the pass's own error (run_scheduler then retries), rather than a second one."""
    monkeypatch.setattr(
        scheduling, "expired_page_ids", Mock(side_effect=OperationalError("database gone"))
    )
    real_record = SchedulerHeartbeat.record

    def record(**fields):
        if "last_error" in fields:
            raise OperationalError("database still gone")
        return real_record(**fields)

    monkeypatch.setattr(SchedulerHeartbeat, "record", record)
    with pytest.raises(OperationalError, match="database gone"):
        scheduling.run_pass(interval=30)
    assert "Could not record the scheduler's failure" in caplog.text


def test_sigterm_stops_a_running_scheduler_cleanly(blog):
    database = connection.settings_dict
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}"
        f":{database['PORT'] or 5432}/{database['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    scheduler = subprocess.Popen(  # noqa: S603 - our own manage.py with fixed arguments
        # An hour between passes: only the signal can end the wait before the deadline below.
        [sys.executable, "manage.py", "run_scheduler", "--interval", "3600"],
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
        scheduler.send_signal(signal.SIGTERM)
        output, _ = scheduler.communicate(timeout=60)
    finally:
        if scheduler.poll() is None:
            scheduler.kill()
    assert scheduler.returncode == 0, output
    assert "published 0, unpublished 0, failed 0" in output
    assert "Scheduler stopped." in output
