"""The admin forms of blog pages."""

from django.utils import timezone
from wagtail.admin.forms import WagtailAdminPageForm


class ScheduledPageForm(WagtailAdminPageForm):
    """A post's edit form that opens without go-live or expiry times that have already passed.

    The form starts from the latest revision, which still carries the schedule the scheduler
    has carried out; posted back, a past expiry fails validation and blocks every save
    (wagtail #13896). A past go-live time means "now", so dropping it changes nothing.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        now = timezone.now()
        for name in ("go_live_at", "expire_at"):
            value = self.initial.get(name)
            if value and value <= now:
                self.initial[name] = None


class BlogPageForm(ScheduledPageForm):
    """The post editor: starts a new post with the writer's byline, and drops a stale schedule.

    A missing hero alt text is held back like Wagtail's other required fields while the editor
    previews or saves a draft: refused there, the preview went blank and the content checker's
    "Card picture has no alt text" could never reach the editor. Publishing still refuses it.
    """

    def __init__(self, *args, **kwargs):
        instance = kwargs.get("instance")
        is_blank_new_post = not args and kwargs.get("data") is None
        if is_blank_new_post and instance is not None and instance._state.adding:
            start_with_signed_in_author(instance, kwargs.get("for_user"))
        super().__init__(*args, **kwargs)

    def _post_clean(self):
        super()._post_clean()
        alt_is_blank = not (self.cleaned_data.get("hero_alt") or "").strip()
        if getattr(self, "is_deferred_validation", False) and alt_is_blank:
            self._errors.pop("hero_alt", None)


def start_with_signed_in_author(post, user):
    """A new post starts with the editor's own byline, when their account has one."""
    if user is None or not user.is_authenticated or post.author_links.all():
        return
    author = getattr(user, "author_profile", None)
    if author is None:
        return
    link_model = post._meta.get_field("author_links").related_model
    post.author_links = [link_model(author=author)]
