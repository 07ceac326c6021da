"""Read-only links to a post's latest draft, for reviewers who have no admin account."""

import re
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

SHARE_LINK_DAYS = 7
# What new_token() makes: 32 random bytes in unpadded base64url.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")


def new_token():
    return secrets.token_urlsafe(32)


def is_token_shaped(value):
    """Whether `value` could be a token at all. Anything else never reaches the database, where
    a NUL byte is an error (PostgreSQL) rather than no match."""
    return TOKEN_SHAPE.fullmatch(value) is not None


def default_expiry():
    return timezone.now() + timedelta(days=SHARE_LINK_DAYS)


class DraftShareLinkQuerySet(models.QuerySet):
    def usable(self):
        """Links a reviewer can open right now: not revoked and not past their expiry."""
        return self.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())


class DraftShareLink(models.Model):
    """A secret address that shows one post's newest draft, whatever has been published."""

    page = models.ForeignKey("blog.BlogPage", on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(
        default=default_expiry,
        help_text="After this moment the link shows a 'not found' page.",
    )
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = DraftShareLinkQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"Share link for “{self.page.title}”"

    def get_absolute_url(self):
        return reverse("blog_shared_draft", kwargs={"token": self.token})

    @property
    def is_revoked(self):
        return self.revoked_at is not None

    @property
    def is_expired(self):
        return self.expires_at <= timezone.now()

    @property
    def is_usable(self):
        return not self.is_revoked and not self.is_expired

    def revoke(self):
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])
