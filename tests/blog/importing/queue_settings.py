"""The test settings with the real queue: a background task waits in the database until a
worker takes it (tests/blog/importing/test_admin_import.py starts one with these)."""

from config.settings.test import *  # noqa: F403

TASKS = {**TASKS, "background": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # noqa: F405
