"""The content generation: a number that moves whenever something readers can see changes,
and the shared memory built on it.

The database holds the number (a publish bumps it in the same place it writes the post); the
shared cache holds a copy so a reader's request costs no query to learn it. Everything
remembered for readers (the full-page cache, the site and its settings, the hidden branches,
search results) is keyed by the generation, so one bump retires all of it in every process at
once: there is nothing to purge and nothing for a process to keep stale.

Each bump also records when the next visible page expires, which only a change can move: the
deadline of everything remembered (remembered.py) travels with the number, so the first
request after a change needs no query to learn it.
"""

import contextvars
import functools
import hashlib
import secrets
from typing import NamedTuple

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F

from config.storage import outage_seen

from . import memory

GENERATION_KEY = "content-generation-and-next-expiry"
# The copy of the generation lives this long at most: if a bump ever fails to reach the cache
# (Redis unreachable for that one write), readers see the new content this much later.
GENERATION_COPY_SECONDS = 10
UNREAD = object()
# The generation as the current request first read it (UNREAD until then; None outside one).
_seen_this_request = contextvars.ContextVar("content_generation_this_request", default=None)


class Generation(NamedTuple):
    value: int
    # When the next visible page expires, as of this generation (None: none will).
    next_expiry: object = None


def shared_cache_enabled():
    return getattr(settings, "CONTENT_CACHE", False)


def _generation_model():
    return apps.get_model("blog", "ContentGeneration")


def stored_snapshot():
    row = _generation_model().objects.filter(pk=1).values_list("value", "next_expiry").first()
    return Generation(*row) if row else Generation(0)


def generation_copy_usable():
    """With a read replica, readers' data may lag the primary's. The generation then comes from
    the database the reader reads (one small query), so it lags with the data and nothing is
    remembered under a generation newer than what it was built from."""
    return shared_cache_enabled() and "replica" not in settings.DATABASES


def current_generation():
    """The generation, read once per request (OneGenerationPerRequest), from the cache's copy
    when there is one (no query)."""
    return current_snapshot().value


def next_expiry_seen():
    """When the next visible page expires, as of the generation this request reads."""
    return current_snapshot().next_expiry


def current_snapshot():
    seen = _seen_this_request.get()
    if seen is not None and seen is not UNREAD:
        return seen
    snapshot = read_snapshot()
    if seen is UNREAD:
        _seen_this_request.set(snapshot)
    return snapshot


def read_snapshot():
    if not generation_copy_usable():
        return stored_snapshot()
    snapshot = cache.get(GENERATION_KEY)
    if not isinstance(snapshot, Generation):
        snapshot = stored_snapshot()
        # add, not set: a bump that lands meanwhile has written the newer number, keep it.
        cache.add(GENERATION_KEY, snapshot, GENERATION_COPY_SECONDS)
    return snapshot


class OneGenerationPerRequest:
    """A page asks for the generation a dozen times (page cache, site, fragments, remembered
    values): one read serves them all, and the page is built from one consistent snapshot."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _seen_this_request.set(UNREAD)
        try:
            return self.get_response(request)
        finally:
            _seen_this_request.reset(token)


def bump_generation(next_expiry=None):
    """Move the generation on. `next_expiry`, a function giving when the next visible page
    expires, is asked once this bump holds the generation's row: of two changes committed at
    once, the bump that writes last has seen both."""
    model = _generation_model()
    with transaction.atomic():
        if not model.objects.filter(pk=1).update(value=F("value") + 1):
            try:
                with transaction.atomic():
                    model.objects.create(pk=1, value=secrets.randbits(48))
            except IntegrityError:  # another process created it first
                model.objects.filter(pk=1).update(value=F("value") + 1)
        if next_expiry is not None:
            model.objects.filter(pk=1).update(next_expiry=next_expiry())
        snapshot = stored_snapshot()
    if shared_cache_enabled():
        cache.set(GENERATION_KEY, snapshot, GENERATION_COPY_SECONDS)
    if _seen_this_request.get() is not None:  # the request that made the change sees it
        _seen_this_request.set(snapshot)


@functools.cache
def code_release():
    """A digest of this deployment's code, templates and static files. What one release
    rendered or pickled may not suit the next (a fragment gains a field, a template changes, a
    stylesheet's hashed name moves), and during a rolling deploy both run side by side on the
    same cache: each keeps to its own entries."""
    digest = hashlib.sha256()
    for app in RELEASE_SOURCES:
        for path in sorted((settings.BASE_DIR / app).rglob("*")):
            if path.suffix in {".py", ".html", ".txt", ".xml", ".css", ".js", ".svg"}:
                digest.update(str(path.relative_to(settings.BASE_DIR)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


RELEASE_SOURCES = ("blog", "home", "search", "config", "templates", "static")


def content_key(kind):
    """The start of every key of something built for readers: retired by the next bump, and
    never shared between two releases of the code."""
    return f"{kind}:{code_release()}:{current_generation()}"


def remembered_key(name):
    digest = hashlib.sha256(name.encode()).hexdigest()[:32]
    return f"{content_key('remembered')}:{digest}"


def forget(name):
    """Drop what is remembered under this name, in the shared cache and this process
    (benchmarks time the work it saves)."""
    if shared_cache_enabled():
        memory.drop(remembered_key(name))


def remember_until_changed(name, build, lifetime=None, keep_none=True):
    """What build() returns, shared by every process until the content changes, and for
    `lifetime` seconds at most (a function giving them, asked only when the value is stored;
    CONTENT_CACHE_TTL by default). The value must pickle; None is remembered too, unless
    `keep_none` is false.

    Reader code remembers through blog.caching.remembered, which also ends every value when
    a post expires; this is its building block, for the inputs of that deadline itself."""
    if not shared_cache_enabled():
        return build()
    key = remembered_key(name)
    found = memory.fetch([key])
    if key in found:
        return found[key]
    value = build()
    if outage_seen.get():  # built around a missing picture: not for the next reader
        return value
    if value is None and not keep_none:
        return value
    memory.keep({key: value}, lifetime() if lifetime else settings.CONTENT_CACHE_TTL)
    return value
