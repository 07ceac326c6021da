from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models
from django.http import Http404
from wagtail.admin.panels import FieldPanel, MultiFieldPanel
from wagtail.contrib.settings.models import BaseSiteSetting, register_setting
from wagtail.models import Page

from .library_adapters import give_parent

# What a browser's URL parser (WHATWG) ignores: tabs and newlines anywhere, and C0 controls and
# spaces at either end.
IGNORED_ANYWHERE = str.maketrans("", "", "\t\n\r")
IGNORED_AT_THE_ENDS = "".join(map(chr, range(0x21)))


def validate_link(value):
    """A header link is a path on this site ("/admin/") or an http(s) address, nothing else."""
    url = value.translate(IGNORED_ANYWHERE).strip(IGNORED_AT_THE_ENDS)
    if url.startswith(("/", "\\")):
        # Read as a browser reads it, where a backslash is a slash: "/\evil.example" and
        # "/<tab>/evil.example" are "//evil.example", another site. (Django's redirect check,
        # url_has_allowed_host_and_scheme, lets "/\<tab>\evil.example" through.)
        if url.startswith("/") and url[1:2] not in ("/", "\\"):
            return
        raise ValidationError(
            "A path on this site starts with a single / followed by something other than / or \\."
        )
    try:
        URLValidator(schemes=["http", "https"])(value)
    except ValidationError as error:
        raise ValidationError(
            "Enter a path on this site starting with / or a full http:// or https:// address."
        ) from error


class HomePage(Page):
    """The site root: a short welcome and the newest posts from the blog."""

    heading = models.CharField(
        max_length=200,
        blank=True,
        help_text="The large line at the top of the home page. Leave empty to use the title.",
    )
    intro = models.TextField(
        blank=True, help_text="One or two sentences under the heading that say what the site is."
    )

    content_panels = [*Page.content_panels, FieldPanel("heading"), FieldPanel("intro")]

    max_count = 1
    parent_page_types = ["wagtailcore.Page"]

    def route(self, request, path_components):
        from blog.visibility import routing_refuses

        if routing_refuses(self, path_components):
            raise Http404
        if path_components:
            blog = self.blogs_by_slug().get(path_components[0])
            if blog is not None:
                give_parent(blog, self)
                return blog.route(request, path_components[1:])
        return super().route(request, path_components)

    def blogs_by_slug(self):
        """The blogs below this page, each fetched as itself (Wagtail's own lookup fetches the
        base page and then the blog), in one query shared by every process until the content
        changes: nearly every reader's request passes through a blog."""
        from blog.caching.remembered import remember
        from blog.models import BlogIndexPage
        from blog.visibility import flag_view_restricted

        def fetch():
            blogs = flag_view_restricted(BlogIndexPage.objects.child_of(self))
            return {blog.slug: blog for blog in blogs}

        return remember(f"blogs-below:{self.pk}", fetch)

    def get_context(self, request, *args, **kwargs):
        from blog.models import BlogIndexPage, BlogPage
        from blog.visibility import visible_to_readers

        context = super().get_context(request, *args, **kwargs)
        blogs = visible_to_readers(BlogIndexPage.objects.all(), children_of=self)
        context["blog_index"] = blogs.order_by("path").first()
        context["latest_posts"] = BlogPage.objects.readable().newest_first().for_cards()[:3]
        return context


@register_setting(icon="site")
class SiteSettings(BaseSiteSetting):
    """What every page's header and footer show. Editors change it under Settings."""

    brand_name = models.CharField(
        max_length=60, default="cedana", help_text="The name shown at the left of the header."
    )
    login_label = models.CharField(
        max_length=40, default="Login", help_text="The text of the sign-in link in the header."
    )
    login_url = models.CharField(
        max_length=500,
        validators=[validate_link],
        blank=True,
        help_text="Where the sign-in link goes: your product's login page, or /admin/ for editors. "
        "Leave empty to hide the link.",
    )
    cta_label = models.CharField(
        max_length=40,
        default="Schedule demo",
        help_text="The text of the highlighted button at the right of the header.",
    )
    cta_url = models.CharField(
        max_length=500,
        validators=[validate_link],
        blank=True,
        help_text="Where the highlighted button goes. Leave empty to hide the button.",
    )
    footer_text = models.TextField(
        blank=True, help_text="A line or two shown at the bottom of every page."
    )

    panels = [
        FieldPanel("brand_name"),
        MultiFieldPanel(
            [FieldPanel("login_label"), FieldPanel("login_url")], heading="Sign-in link"
        ),
        MultiFieldPanel([FieldPanel("cta_label"), FieldPanel("cta_url")], heading="Call to action"),
        FieldPanel("footer_text"),
    ]

    class Meta:
        verbose_name = "Site header and footer"
