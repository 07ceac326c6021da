"""Request-level hardening: the client address every throttle trusts, the admin's CSP, the
rate-limited password reset and page passwords."""

import unicodedata

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.template.response import TemplateResponse
from django_ratelimit.decorators import ratelimit
from wagtail.admin.views.account import PasswordResetView
from wagtail.views import authenticate_with_password


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


def _email_key(group, request):
    # Django mails every user whose address equals the typed one once both are NFKC-normalised
    # and casefolded (PasswordResetForm.get_users), so that form is the mailbox: ED1@…, a long s
    # (ſ) for s or full-width letters all reach the same user and must share one count.
    return unicodedata.normalize("NFKC", request.POST.get("email", "").strip()).casefold()


_password_reset = PasswordResetView.as_view()


@ratelimit(
    key="ip",
    rate=lambda group, request: settings.PASSWORD_RESET_RATE_PER_IP,
    method="POST",
    block=False,
)
@ratelimit(
    key=_email_key,
    rate=lambda group, request: settings.PASSWORD_RESET_RATE_PER_EMAIL,
    method="POST",
    block=False,
)
def password_reset(request, *args, **kwargs):
    """Wagtail's admin password reset, refusing further e-mails once either limit is reached."""
    if getattr(request, "limited", False):
        return TemplateResponse(request, "security/too_many_requests.html", status=429)
    return _password_reset(request, *args, **kwargs)


def _restriction_key(group, request):
    return f"restriction:{request.resolver_match.kwargs['page_view_restriction_id']}"


@ratelimit(
    key="ip",
    rate=lambda group, request: settings.PAGE_PASSWORD_RATE_PER_IP,
    method="POST",
    block=False,
)
@ratelimit(
    key=_restriction_key,
    rate=lambda group, request: settings.PAGE_PASSWORD_RATE_PER_RESTRICTION,
    method="POST",
    block=False,
)
def page_password(request, page_view_restriction_id, page_id):
    """Wagtail's form for a password-protected page, refusing further guesses once either limit
    is reached. Every POST counts, right or wrong: a guesser cannot tell them apart in advance."""
    if getattr(request, "limited", False):
        return TemplateResponse(request, "security/too_many_page_passwords.html", status=429)
    return authenticate_with_password(request, page_view_restriction_id, page_id)
