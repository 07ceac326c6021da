"""Remembered values: what reader pages work out once (the featured post, topic counts,
related posts, the sites and their settings, a search's ranking, the chrome's fragments) and
every process reuses.

Each value lives until the content changes (its key names the content generation) and never
past the moment the next visible post expires: a post can drop out of sight without anyone
publishing (the scheduler unpublishes it within a minute), and nothing remembered may show it
meanwhile. The deadline travels with the value, so no caller re-checks an expiry.
"""

import pickle

from django.conf import settings
from django.utils import timezone

from .generation import next_expiry_seen, remember_until_changed


def remember(name, build):
    """What build() returns, shared by every process until the content changes or the next
    visible post expires. The value must pickle; None is remembered too."""
    return remember_until_changed(name, build, lifetime=lifetime_until_next_expiry)


def remember_ids(name, find, fetch_by_id):
    """The ids of the rows find() fetches, remembered as remember() does, and the function
    render_fragments loads the rows it still needs with. The request that runs find() hands
    on the rows it fetched, so the first one after a change reads them once; later requests
    fetch by id (fetch_by_id, e.g. QuerySet.in_bulk) only those whose fragments are not kept."""
    fetched = {}

    def build():
        fetched.update((row.pk, row) for row in find())
        return list(fetched)

    ids = remember(name, build)
    return ids, lambda wanted: fetched or fetch_by_id(wanted)


def remember_found(name, find):
    """The object find() returns, remembered as remember() does, or None, remembered not at
    all: an address that names nothing keeps nothing, so no address pads the cache. Each
    caller gets a copy of its own, free to change (routing hands a post its parent)."""

    def build():
        found = find()
        return None if found is None else pickle.dumps(found, pickle.HIGHEST_PROTOCOL)

    kept = remember_until_changed(name, build, lifetime=lifetime_until_next_expiry, keep_none=False)
    return None if kept is None else pickle.loads(kept)  # noqa: S301  (pickled above)


def lifetime_until_next_expiry(longest=None):
    """Seconds something built for readers may be kept: `longest` (CONTENT_CACHE_TTL by
    default), cut short when a visible post expires sooner. The next expiry only moves when
    pages change, and each change records it with the generation (invalidation.py)."""
    longest = settings.CONTENT_CACHE_TTL if longest is None else longest
    expiry = next_expiry_seen()
    if expiry is None:
        return longest
    return min(longest, max(1, (expiry - timezone.now()).total_seconds()))
