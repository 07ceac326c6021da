from wagtail import hooks

from . import (  # noqa: F401  (registers their hooks)
    autosave,  # autosave without a second post or an identical version
    editor_hooks,  # Posts overview, calendar, share links, content checks
    schedule_messages,  # messages that say when readers see the post
    snippets,  # Topics and Authors
)
from .dashboard import ScheduledPublishingPanel


@hooks.register("construct_homepage_panels")
def add_scheduled_publishing_panel(request, panels):
    panels.append(ScheduledPublishingPanel())
