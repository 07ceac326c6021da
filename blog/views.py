"""Reader-facing views of the blog app that are not pages: robots.txt and the reviewers' share
links."""

from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control

from .seo import site_root_url
from .share_links import DraftShareLink, is_token_shaped

NOT_SHARED = "This share link is unknown, revoked or expired."


def robots_txt(request):
    # The sitemap at the site's configured address: the page cache serves this to every Host.
    context = {"sitemap_url": site_root_url(request) + reverse("sitemap")}
    return TemplateResponse(request, "robots.txt", context, content_type="text/plain")


def shared_draft(request, token):
    """The newest draft of one post, for whoever holds a usable link; 404 otherwise."""
    if not is_token_shaped(token):
        raise Http404(NOT_SHARED)
    link = DraftShareLink.objects.usable().select_related("page").filter(token=token).first()
    if link is None:
        raise Http404(NOT_SHARED)
    draft = link.page.get_latest_revision_as_object()
    # A reviewer who happens to be signed in must still see the reader's page, no admin bar.
    request.user = AnonymousUser()
    request.is_preview = True
    response = TemplateResponse(
        request, "blog/shared_draft.html", {"page": draft, "link": link, "shared_draft": True}
    )
    response["X-Robots-Tag"] = "noindex, nofollow"
    # The token is the secret: never let it leak to other sites through the Referer header.
    response["Referrer-Policy"] = "no-referrer"
    patch_cache_control(response, private=True, no_store=True)
    return response
