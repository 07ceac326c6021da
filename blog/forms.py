"""The post editor's form: what a writer sees when they start a new post."""

from wagtail.admin.forms import WagtailAdminPageForm


class BlogPageForm(WagtailAdminPageForm):
    def __init__(self, *args, **kwargs):
        instance = kwargs.get("instance")
        is_blank_new_post = not args and kwargs.get("data") is None
        if is_blank_new_post and instance is not None and instance._state.adding:
            start_with_signed_in_author(instance, kwargs.get("for_user"))
        super().__init__(*args, **kwargs)


def start_with_signed_in_author(post, user):
    """A new post starts with the editor's own byline, when their account has one."""
    if user is None or not user.is_authenticated or post.author_links.all():
        return
    author = getattr(user, "author_profile", None)
    if author is None:
        return
    link_model = post._meta.get_field("author_links").related_model
    post.author_links = [link_model(author=author)]
