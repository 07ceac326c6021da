from wagtail import hooks

from . import snippets  # noqa: F401  (registers Topics and Authors in the admin)
from .editorial import (  # noqa: F401  (registers their hooks)
    autosave,  # autosave without a second post or an identical version
    changes_requested,  # the request and its comment for the author, one way back to review
    editor_hooks,  # Posts overview, calendar, share links, content checks
    post_words,  # "post", not "page", in the menu and on the dashboard; back to the Posts list
    schedule_messages,  # messages that say when readers see the post
)
from .editorial.dashboard import ScheduledPublishingPanel
from .rich_text import TextEmbedHandler


@hooks.register("construct_homepage_panels")
def add_scheduled_publishing_panel(request, panels):
    panels.append(ScheduledPublishingPanel())


# After wagtail.embeds' own hook (order 0), which registers its handler for the same embeds.
@hooks.register("register_rich_text_features", order=1)
def show_embeds_in_text_as_the_embed_block_does(features):
    features.register_embed_type(TextEmbedHandler)
