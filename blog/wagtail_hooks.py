from wagtail import hooks

from . import editor_hooks, snippets  # noqa: F401  (Posts overview, calendar, share links, content checks; Topics and Authors)
from .dashboard import ScheduledPublishingPanel


@hooks.register("construct_homepage_panels")
def add_scheduled_publishing_panel(request, panels):
    panels.append(ScheduledPublishingPanel())
