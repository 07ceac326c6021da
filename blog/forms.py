"""The admin forms of blog pages, topics and authors."""

import re
import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.forms import Script
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.text import capfirst
from wagtail.admin.forms import WagtailAdminModelForm, WagtailAdminPageForm
from wagtail.admin.panels import get_edit_handler


class CharacterLimitMixin:
    """Every length-limited text field counts its characters as the editor types ("120 / 300
    characters") and refuses on save what is over, saying by how much; nothing is cut.

    Django renders `max_length` as the `maxlength` attribute, and browsers cut a paste at it
    without a word: 378 characters pasted into the summary kept 300, mid-word. The limit
    moves to a data attribute that static/js/character-count.js reads; max_length itself
    still guards the database.
    """

    class Media:
        js = ["js/character-count.js"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        headings = panel_headings(self._meta.model)
        for name, field in self.fields.items():
            limit = getattr(field, "max_length", None)
            if not limit or field.widget.is_hidden:
                continue
            attrs = field.widget.attrs
            attrs.pop("maxlength", None)
            # Wagtail's own controllers (w-slug, w-sync...) may be on the widget already.
            attrs["data-controller"] = join_tokens(attrs.get("data-controller"), "character-count")
            attrs["data-action"] = join_tokens(
                attrs.get("data-action"),
                "input->character-count#update change->character-count#update",
            )
            attrs["data-character-count-limit-value"] = limit
            label = headings.get(name) or capfirst(field.label or name)
            field.validators = [
                *(v for v in field.validators if not isinstance(v, MaxLengthValidator)),
                WithinCharacterLimit(limit, label),
            ]


class WithinCharacterLimit(MaxLengthValidator):
    """'Summary is 78 characters too long: it has 378 and the limit is 300.'"""

    def __init__(self, limit, label):
        super().__init__(limit)
        self.label = label

    def __call__(self, value):
        over = len(value) - self.limit_value
        if over > 0:
            raise ValidationError(
                f"{self.label} is {over} character{'s' if over != 1 else ''} too long: it has "
                f"{len(value)} and the limit is {self.limit_value}. Shorten it to save; "
                "nothing has been cut.",
                code=self.code,
            )


def panel_headings(model):
    """{field name: the heading its panel shows}, so a message names the field as the editor
    sees it ("Title in search results", not the model's "title tag")."""
    headings = {}

    def walk(panel):
        if getattr(panel, "field_name", None) and panel.heading:
            headings[panel.field_name] = str(panel.heading)
        for child in getattr(panel, "children", ()):
            walk(child)

    walk(get_edit_handler(model))
    return headings


def join_tokens(*tokens):
    return " ".join(token for token in tokens if token)


class ScheduledPageForm(WagtailAdminPageForm):
    """A post's edit form that opens without go-live or expiry times that have already passed.

    The form starts from the latest revision, which still carries the schedule the scheduler
    has carried out; posted back, a past expiry fails validation and blocks every save
    (wagtail #13896). A past go-live time means "now", so dropping it changes nothing.
    """

    class Media:
        # The schedule is edited on the Publishing tab (blog.panels.schedule_panels), so the
        # status side panel's "Set schedule" would open a dialog this editor does not have.
        css = {"all": ["css/editor-schedule.css"]}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        now = timezone.now()
        for name in ("go_live_at", "expire_at"):
            value = self.initial.get(name)
            if value and value <= now:
                self.initial[name] = None


LINE_BREAKS = re.compile(r"\s*[\r\n]+\s*")

# The add form's own key: a second post of the same form edits the post the first one made
# (blog/editorial/autosave.py).
CREATE_KEY = "add_form_key"

ADDRESS_TAKEN = "Another post already has the address “{slug}”. Choose a different one."
ADDRESS_INVALID = (
    "An address may only hold letters, numbers, hyphens and underscores, e.g. “gpu-checkpoints”."
)


class BlogPageForm(CharacterLimitMixin, ScheduledPageForm):
    """The post editor: starts a new post with the writer's byline, and drops a stale schedule.

    A missing hero alt text is held back like Wagtail's other required fields while the editor
    previews or saves a draft: refused there, the preview went blank and the content checker's
    "Card picture has no alt text" could never reach the editor. Publishing still refuses it.
    """

    class Media:
        # Declared here, the mixin's Media is no longer inherited on its own.
        js = [
            *CharacterLimitMixin.Media.js,
            "js/tick-order.js",
            "js/inline-headings.js",
            "js/publish-label.js",
            # The count comes from the server: the same BlogPage.word_count the reading time uses.
            Script("js/word-count.js", **{"data-count-url": reverse_lazy("blog_body_word_count")}),
        ]

    def __init__(self, *args, **kwargs):
        instance = kwargs.get("instance")
        is_blank_new_post = not args and kwargs.get("data") is None
        if is_blank_new_post and instance is not None and instance._state.adding:
            start_with_signed_in_author(instance, kwargs.get("for_user"))
        super().__init__(*args, **kwargs)
        # Left empty, the alt text comes from the image's description (BlogPage.clean); with
        # none, publishing refuses it (clean). A required field would refuse first.
        self.fields["hero_alt"].required = False
        if instance is not None and instance._state.adding:
            self.fields[CREATE_KEY] = forms.CharField(
                required=False, widget=forms.HiddenInput, initial=uuid.uuid4().hex
            )

    def clean_title(self):
        # The title box is a textarea so that it can grow; Enter in it adds no line to the
        # headline.
        return LINE_BREAKS.sub(" ", self.cleaned_data["title"])

    def clean(self):
        cleaned_data = super().clean()
        if self.has_error("slug"):
            self.errors["slug"] = self.error_class(
                [self.in_address_words(message) for message in self.errors["slug"]]
            )
        held_back = self.is_deferred_validation or self.has_error("hero_alt")
        if not held_back and hero_left_undescribed(cleaned_data):
            self.add_error("hero_alt", "Describe the hero image for readers who can't see it.")
        return cleaned_data

    def in_address_words(self, message):
        """Wagtail's and Django's messages about the field say "slug"; the editor's field is
        called Address."""
        if "slug" not in message.lower():
            return message
        slug = self.data.get(self.add_prefix("slug"), "")
        siblings = self.parent_page.get_children().exclude(pk=self.instance.pk)
        if slug and siblings.filter(slug=slug).exists():
            return ADDRESS_TAKEN.format(slug=slug)
        return ADDRESS_INVALID


def hero_left_undescribed(cleaned_data):
    """A hero picture with no alt text typed and no description for BlogPage.clean to take it
    from (the field strips spaces)."""
    image = cleaned_data.get("hero_image")
    return image is not None and not (cleaned_data.get("hero_alt") or image.description).strip()


def start_with_signed_in_author(post, user):
    """A new post starts with the editor's own byline, when their account has one."""
    if user is None or not user.is_authenticated or post.author_links.all():
        return
    author = getattr(user, "author_profile", None)
    if author is None:
        return
    link_model = post._meta.get_field("author_links").related_model
    post.author_links = [link_model(author=author)]


class CharacterLimitModelForm(CharacterLimitMixin, WagtailAdminModelForm):
    """The topic and author forms: the same character counts as the post editor."""
