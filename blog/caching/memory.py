"""Where what is built for readers is kept: the shared cache, with a small memory in each
process in front of it.

Everything built for readers is stored under a key that names the content generation and the
code release (generation.content_key), so the value under a key never changes: a change moves
the generation and readers ask for new keys. A copy kept in the process cannot go stale; it
only has to end when the shared entry does, so each entry carries its deadline (a stored answer
may be cut short by a post's expiry). A page reads two dozen fragments and remembered values:
from the process they cost no round trip to Redis (or file reads) and no unpickling.
"""

import math
import threading
import time
from collections import OrderedDict

from django.conf import settings
from django.core.cache import cache


def fetch(keys):
    """The values kept under these keys, by key; keys with nothing kept, or kept past their
    deadline, are left out."""
    found = local_memory.get_many(keys)
    rest = [key for key in keys if key not in found]
    if rest:
        now = time.time()
        # The shared cache counts whole seconds; the deadline is to the instant.
        shared = {key: entry for key, entry in cache.get_many(rest).items() if entry[1] > now}
        local_memory.set_many(shared)
        found.update((key, value) for key, (value, _deadline) in shared.items())
    return found


def keep(values, seconds):
    """Keep each value under its key for every process, for `seconds` at most."""
    deadline = time.time() + seconds
    entries = {key: (value, deadline) for key, value in values.items()}
    cache.set_many(entries, math.ceil(seconds))
    local_memory.set_many(entries)


def drop(key):
    cache.delete(key)
    local_memory.delete(key)


class LocalMemory:
    """This process's most recently used entries, each until its deadline (epoch seconds)."""

    def __init__(self):
        self.entries = OrderedDict()
        self.lock = threading.Lock()  # threaded workers share it

    def get_many(self, keys):
        now = time.time()
        found = {}
        with self.lock:
            for key in keys:
                entry = self.entries.get(key)
                if entry is None:
                    continue
                value, deadline = entry
                if deadline <= now:
                    del self.entries[key]
                    continue
                self.entries.move_to_end(key)
                found[key] = value
        return found

    def set_many(self, entries):
        """Keep (value, deadline) pairs, forgetting the least recently used beyond the limit."""
        limit = settings.CONTENT_CACHE_LOCAL_ENTRIES
        with self.lock:
            for key, entry in entries.items():
                self.entries[key] = entry
                self.entries.move_to_end(key)
            while len(self.entries) > limit:
                self.entries.popitem(last=False)

    def delete(self, key):
        with self.lock:
            self.entries.pop(key, None)

    def clear(self):
        with self.lock:
            self.entries.clear()


local_memory = LocalMemory()
