"""The project's scheduler: publishes due posts and unpublishes expired ones
(blog.editorial.scheduling)."""

import logging
import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, close_old_connections

from blog.editorial.scheduling import pass_finished, run_pass

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Publish scheduled posts that are due and unpublish expired ones every --interval "
        "seconds (default SCHEDULER_INTERVAL, 30). Stops cleanly on SIGTERM or Ctrl-C. "
        "--once runs a single pass, for cron or a Kubernetes CronJob, and exits 1 if any "
        "post failed."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--interval",
            type=float,
            default=settings.SCHEDULER_INTERVAL,
            help="Seconds between passes; with --once, how often cron runs it (for the health "
            "panel).",
        )
        parser.add_argument("--once", action="store_true", help="Run one pass and exit.")

    def handle(self, *args, interval, once, **options):
        if interval <= 0:
            raise CommandError("--interval must be a positive number of seconds.")
        if once:
            try:
                result = run_pass(interval=interval)
            except DatabaseError as error:
                raise CommandError(f"The pass failed: {error}") from error
            self.stdout.write(result.summary)
            self.after_pass(result)
            if result.failed:
                raise CommandError(f"{result.failed} scheduled item(s) failed; see the log.")
            return

        stopping = threading.Event()

        def stop(signum, frame):
            # Only a flag: the item being published is finished before the loop notices it.
            stopping.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.stdout.write(f"Scheduler running every {interval:g}s. Stop with Ctrl-C or SIGTERM.")
        while not stopping.is_set():
            close_old_connections()
            try:
                result = run_pass(interval=interval, should_stop=stopping.is_set)
            except DatabaseError:
                # The database may come back; a scheduler that dies here publishes nothing.
                logger.exception("Scheduler pass failed; trying again in %gs", interval)
            else:
                self.stdout.write(result.summary)
                self.after_pass(result)
            self.stdout.flush()
            stopping.wait(interval)
        self.stdout.write("Scheduler stopped.")

    def after_pass(self, result):
        # A failing listener is logged and skipped: publishing must go on.
        for receiver, response in pass_finished.send_robust(sender=self.__class__, result=result):
            if isinstance(response, Exception):
                logger.error("After-pass work %r failed", receiver, exc_info=response)
            elif response:
                self.stdout.write(str(response))
