from . import editor_hooks  # noqa: F401  (Posts overview, calendar, share links, content checks)
