"""The project's own scheduler: publishes due posts and unpublishes expired ones, forever."""

import signal
import threading

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections


class Command(BaseCommand):
    help = (
        "Publish scheduled posts that are due and unpublish expired ones every --interval "
        "seconds (default SCHEDULER_INTERVAL, 30). Stops cleanly on SIGTERM or Ctrl-C. "
        "--once runs a single pass, for cron or a Kubernetes CronJob."
    )

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=settings.SCHEDULER_INTERVAL)
        parser.add_argument("--once", action="store_true", help="Run one pass and exit.")

    def handle(self, *args, interval, once, **options):
        if once:
            self.run_pass()
            return
        stopping = threading.Event()

        def stop(signum, frame):
            stopping.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.stdout.write(f"Scheduler running every {interval:g}s. Stop with Ctrl-C or SIGTERM.")
        while not stopping.is_set():
            self.run_pass()
            stopping.wait(interval)
        self.stdout.write("Scheduler stopped.")

    def run_pass(self):
        close_old_connections()
        call_command("publish_scheduled", stdout=self.stdout)
