from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.urls import reverse
from wagtail.contrib.frontend_cache.utils import PurgeBatch
from wagtail.signals import page_published, page_unpublished

from .models import BlogIndexPage, BlogPage, Topic
from .roles import attach_roles_to_blog


@receiver(post_save, sender=BlogIndexPage, dispatch_uid="blog_index_editorial_roles")
def give_a_new_blog_its_editorial_roles(sender, instance, created, raw=False, **kwargs):
    # A fresh database has no blog when the roles migration runs; the blog that `load_demo`
    # or an administrator creates later gets the same permissions and review workflow.
    if created and not raw:
        attach_roles_to_blog(apps, instance.pk)


# Frontend cache (CDN, Varnish) -------------------------------------------------------------


def listing_urls(blog):
    """Every address of a blog that lists posts: its pages, its feeds, each topic's pages and
    feeds. Later pages of a listing than FRONTEND_CACHE_PURGE_PAGES are left to expire."""
    base = blog.get_full_url()
    if base is None:  # not routable from any site
        return []
    pages = range(2, settings.FRONTEND_CACHE_PURGE_PAGES + 1)

    def listing(path):
        return [base + path, *(f"{base}{path}?page={number}" for number in pages)]

    urls = [*listing(""), base + "feed/", base + "atom/"]
    for slug in Topic.objects.values_list("slug", flat=True):
        topic = blog.reverse_subpage("topic_posts", kwargs={"slug": slug})
        urls += [*listing(topic), f"{base}{topic}feed/", f"{base}{topic}atom/"]
    return urls


def purge_what_shows(page):
    """The addresses outside the page itself that show it: the blog's listings and feeds, the
    home page (newest posts) and the sitemap. Wagtail's frontend_cache app purges the page."""
    blog = page if isinstance(page, BlogIndexPage) else page.get_parent().specific
    batch = PurgeBatch(listing_urls(blog))
    home = blog.get_parent()
    root = home.get_full_url()
    if root is not None:
        batch.add_url(root)
        batch.add_url(root.rstrip("/") + reverse("sitemap"))
    batch.purge()


def purge_listings(sender, instance, **kwargs):
    if not settings.WAGTAILFRONTENDCACHE:
        return
    # After commit, so that a CDN refetching at once gets the new listing, not the old one.
    transaction.on_commit(lambda: purge_what_shows(instance))


for page_type in (BlogPage, BlogIndexPage):
    page_published.connect(
        purge_listings, sender=page_type, dispatch_uid=f"purge_published_{page_type.__name__}"
    )
    page_unpublished.connect(
        purge_listings, sender=page_type, dispatch_uid=f"purge_unpublished_{page_type.__name__}"
    )
