"""Run one benchmark's Command as manage.py would run a management command:

    python -m tests.bench.command admin --repeat 20
    python -m tests.bench.command editor-actions --server http://127.0.0.1:8000 --repeat 7
    python -m tests.bench.command search --posts 1000

The benchmarks are Django commands (arguments, settings, stdout) that are not part of any app,
so a deployment never lists or ships them."""

import importlib
import os
import sys

import django

BENCHMARKS = {
    "admin": "tests.bench.admin",
    "editor-actions": "tests.bench.editor_actions",
    "search": "tests.bench.search",
}


def main(argv):
    if not argv or argv[0] not in BENCHMARKS:
        raise SystemExit(f"usage: python -m tests.bench.command {{{','.join(BENCHMARKS)}}} ...")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    django.setup()
    command = importlib.import_module(BENCHMARKS[argv[0]]).Command()
    command.run_from_argv(["manage.py", f"bench_{argv[0]}", *argv[1:]])


if __name__ == "__main__":
    main(sys.argv[1:])
