"""Request-level hardening: the client address every throttle trusts, the admin's CSP, the
request body cap, the rate-limited password reset and page and document passwords."""

import functools
import unicodedata

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django_ratelimit.decorators import ratelimit
from wagtail.admin.views.account import PasswordResetView
from wagtail.documents.views import serve as documents
from wagtail.views import authenticate_with_password

from blog.editorial.roles import PUBLISHERS


def client_ip(request):
    """REMOTE_ADDR, or the address the outermost of TRUSTED_PROXY_COUNT proxies saw.

    Each trusted proxy appends the address it received the request from to X-Forwarded-For,
    so only the last TRUSTED_PROXY_COUNT entries are facts; anything to their left is what
    the client chose to send.
    """
    remote_addr = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote_addr
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    if len(forwarded) < proxies:
        return remote_addr
    return forwarded[-proxies]


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp, with the looser ADMIN_CONTENT_SECURITY_POLICY for the Wagtail admin."""

    def process_response(self, request, response):
        # Wagtail renders a preview through the middleware again with a dummy request for the
        # page's own URL; the reader policy set there (frame-ancestors 'none') would stop the
        # admin framing its preview. The real admin request sets the admin policy instead.
        if getattr(request, "is_dummy", False):
            return response
        return super().process_response(request, response)

    def get_policy_parts(self, request, response, report_only=False):
        parts = super().get_policy_parts(request, response, report_only)
        is_admin = request.path_info.startswith(settings.ADMIN_URL_PREFIX)
        if is_admin and not report_only and parts.config is None:
            parts.config = settings.ADMIN_CONTENT_SECURITY_POLICY
        return parts


class RequestBodyLimitMiddleware:
    """413 for a body over MAX_REQUEST_BODY (MAX_EDITOR_REQUEST_BODY for admin users,
    MAX_IMPORT_REQUEST_BODY for a Publisher's export upload), before anything reads it.

    DATA_UPLOAD_MAX_MEMORY_SIZE leaves files out: Django spools an uploaded file to disk whatever
    its size, even one posted anonymously to the sign-in form. Django reads at most CONTENT_LENGTH
    bytes of a body (none without it), so the declared length is the whole of what it would read.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        declared = request.META.get("CONTENT_LENGTH") or "0"
        # HTTP allows digits only; Django would read a malformed length as no body at all.
        if not (declared.isascii() and declared.isdigit()):
            return _malformed_length()
        length = int(declared)
        if length > settings.MAX_REQUEST_BODY and length > _largest_body_from(request):
            return _request_too_large()
        return self.get_response(request)


def _largest_body_from(request):
    """Anyone: MAX_REQUEST_BODY. Admin users: MAX_EDITOR_REQUEST_BODY. A Publisher on the import
    screen: MAX_IMPORT_REQUEST_BODY, a blog's export with its pictures (the one query is asked
    only of a body that large)."""
    user = request.user
    if not user.has_perm("wagtailadmin.access_admin"):
        return settings.MAX_REQUEST_BODY
    if request.path_info == reverse("blog_import_posts") and (
        user.is_superuser or user.groups.filter(name=PUBLISHERS).exists()
    ):
        return max(settings.MAX_IMPORT_REQUEST_BODY, settings.MAX_EDITOR_REQUEST_BODY)
    return settings.MAX_EDITOR_REQUEST_BODY


def _request_too_large():
    # Without the request, so no context processor runs: a refusal costs no database query.
    page = render_to_string(
        "security/request_too_large.html",
        {"limit": settings.MAX_REQUEST_BODY, "editor_limit": settings.MAX_EDITOR_REQUEST_BODY},
    )
    return HttpResponse(page, status=413)


def _malformed_length():
    return HttpResponse(render_to_string("security/malformed_length.html"), status=400)


def _email_key(group, request):
    # Django mails every user whose address equals the typed one once both are NFKC-normalised
    # and casefolded (PasswordResetForm.get_users), so that form is the mailbox: ED1@…, a long s
    # (ſ) for s or full-width letters all reach the same user and must share one count.
    return unicodedata.normalize("NFKC", request.POST.get("email", "").strip()).casefold()


def throttled(refusal_template, *limits):
    """Refuse a view's POSTs with a readable 429 page once any limit is reached.

    Each limit is (django-ratelimit key, name of the setting that holds its rate); every POST
    counts, right or wrong, since a guesser cannot tell them apart in advance.
    """

    def decorate(view):
        @functools.wraps(view)
        def throttled_view(request, *args, **kwargs):
            if getattr(request, "limited", False):
                return TemplateResponse(request, refusal_template, status=429)
            return view(request, *args, **kwargs)

        for key, rate_setting in limits:
            throttled_view = ratelimit(
                key=key,
                rate=lambda group, request, name=rate_setting: getattr(settings, name),
                method="POST",
                block=False,
            )(throttled_view)
        return throttled_view

    return decorate


def _restriction_key(group, request):
    return f"restriction:{request.resolver_match.kwargs['page_view_restriction_id']}"


def _collection_restriction_key(group, request):
    return f"collection-restriction:{request.resolver_match.kwargs['restriction_id']}"


_password_reset = PasswordResetView.as_view()


@throttled(
    "security/too_many_requests.html",
    ("ip", "PASSWORD_RESET_RATE_PER_IP"),
    (_email_key, "PASSWORD_RESET_RATE_PER_EMAIL"),
)
def password_reset(request, *args, **kwargs):
    """Wagtail's admin password reset, refusing further e-mails once either limit is reached."""
    return _password_reset(request, *args, **kwargs)


@throttled(
    "security/too_many_page_passwords.html",
    ("ip", "PAGE_PASSWORD_RATE_PER_IP"),
    (_restriction_key, "PAGE_PASSWORD_RATE_PER_RESTRICTION"),
)
def page_password(request, page_view_restriction_id, page_id):
    """Wagtail's form for a password-protected page, refusing further guesses once either limit
    is reached."""
    return authenticate_with_password(request, page_view_restriction_id, page_id)


@throttled(
    "security/too_many_page_passwords.html",
    ("ip", "PAGE_PASSWORD_RATE_PER_IP"),
    (_collection_restriction_key, "PAGE_PASSWORD_RATE_PER_RESTRICTION"),
)
def document_password(request, restriction_id):
    """Wagtail's form for a password-protected collection of documents, limited as a page's."""
    return documents.authenticate_with_password(request, restriction_id)
