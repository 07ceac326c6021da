from wagtail import hooks

from . import editor_hooks, schedule_messages, snippets  # noqa: F401  (Posts overview, calendar, share links, content checks; schedule messages; Topics and Authors)
from .dashboard import ScheduledPublishingPanel


@hooks.register("construct_homepage_panels")
def add_scheduled_publishing_panel(request, panels):
    panels.append(ScheduledPublishingPanel())
