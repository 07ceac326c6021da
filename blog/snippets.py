"""Topics and authors in the admin: their own menu items, searchable listings and choosers."""

from functools import cached_property

from django.core.exceptions import ValidationError
from wagtail.admin.menu import MenuItem
from wagtail.permission_policies import ModelPermissionPolicy
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.chooser import SnippetChooserViewSet, SnippetChosenMultipleView
from wagtail.snippets.views.snippets import SnippetViewSet

from .models import Author, Topic


class InTickOrderChosenView(SnippetChosenMultipleView):
    """The items ticked in a chooser, in the order the editor ticked them.

    Wagtail returns them in the model's order (alphabetical), and the post's first topic is
    its card's label. static/js/tick-order.js sends the tick order as `picked`; ids it does not
    name (a browser without the script) follow in the order they were sent.
    """

    def get_objects(self, pks):
        # A hand-edited address may send "01" for 1, or no number at all: an id is compared
        # as the database reads it, and one that is no id chooses nothing.
        position = {}
        for n, sent in enumerate([*self.request.GET.getlist("picked"), *pks]):
            pk = self.as_pk(sent)
            if pk is not None:
                position.setdefault(pk, n)
        chosen = super().get_objects([pk for pk in map(self.as_pk, pks) if pk is not None])
        return sorted(chosen, key=lambda item: position[item.pk])

    def as_pk(self, value):
        try:
            return self.model_class._meta.pk.to_python(value)
        except ValidationError:
            return None


class InTickOrderChooserViewSet(SnippetChooserViewSet):
    chosen_multiple_view_class = InTickOrderChosenView


class TopicChooserViewSet(InTickOrderChooserViewSet):
    """Editors may add a topic while writing, as on Ghost and WordPress (blog/editorial/roles.py):
    the chooser offers a form for it. Readers meet a new topic only once a Publisher publishes a
    post that has it; renaming and removing topics stay with Publishers."""

    form_fields = ["name", "slug"]
    create_action_label = "Add topic"
    creation_tab_label = "New topic"


class ManagedByPublishersViewSet(SnippetViewSet):
    """Topics and authors show on the public blog, so Publishers manage them (blog/editorial/roles.py).

    Their lists search the model's own search fields (the name): naming fields on the viewset
    made modelsearch's SQLite backend ask for a column its index does not have, and every
    search of the list failed on the demo's database.

    Editors choose them on a post, for which the chooser needs only the right to view (and add
    a topic there, TopicChooserViewSet); a menu item leading to a list they could only add to
    would puzzle them, so it shows to those who may change or delete.
    """

    chooser_viewset_class = InTickOrderChooserViewSet

    @cached_property
    def menu_item_class(self):
        policy = ModelPermissionPolicy(self.model)

        class ManagersMenuItem(MenuItem):
            def is_shown(self, request):
                return policy.user_has_any_permission(request.user, ["change", "delete"])

        return ManagersMenuItem


class TopicViewSet(ManagedByPublishersViewSet):
    model = Topic
    chooser_viewset_class = TopicChooserViewSet
    icon = "tag"
    menu_label = "Topics"
    menu_order = 210
    add_to_admin_menu = True
    list_display = ["name", "slug"]


class AuthorViewSet(ManagedByPublishersViewSet):
    model = Author
    icon = "user"
    menu_label = "Authors"
    menu_order = 220
    add_to_admin_menu = True
    list_display = ["name", "role", "user"]


register_snippet(TopicViewSet)
register_snippet(AuthorViewSet)
