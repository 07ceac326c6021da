from wagtail import hooks

from .dashboard import ScheduledPublishingPanel


@hooks.register("construct_homepage_panels")
def add_scheduled_publishing_panel(request, panels):
    panels.append(ScheduledPublishingPanel())
