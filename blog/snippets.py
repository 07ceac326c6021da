"""Topics and authors in the admin: their own menu items, searchable listings and choosers."""

from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import SnippetViewSet

from .models import Author, Topic


class TopicViewSet(SnippetViewSet):
    model = Topic
    icon = "tag"
    menu_label = "Topics"
    menu_order = 210
    add_to_admin_menu = True
    list_display = ["name", "slug"]
    search_fields = ["name"]


class AuthorViewSet(SnippetViewSet):
    model = Author
    icon = "user"
    menu_label = "Authors"
    menu_order = 220
    add_to_admin_menu = True
    list_display = ["name", "role", "user"]
    search_fields = ["name"]


register_snippet(TopicViewSet)
register_snippet(AuthorViewSet)
