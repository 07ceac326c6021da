from wagtail import hooks

from . import snippets  # noqa: F401  (registers Topics and Authors in the admin)
from .editorial import (  # noqa: F401  (registers their hooks)
    autosave,  # autosave without a second post or an identical version
    changes_requested,  # the request and its comment for the author, one way back to review
    editor_hooks,  # Posts overview, calendar, share links, content checks
    schedule_messages,  # messages that say when readers see the post
)
from .editorial.dashboard import ScheduledPublishingPanel


@hooks.register("construct_homepage_panels")
def add_scheduled_publishing_panel(request, panels):
    panels.append(ScheduledPublishingPanel())
