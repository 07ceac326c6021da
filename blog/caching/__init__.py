"""The cache layer: what reader pages build once and every process reuses.

One idea holds it together: everything kept for readers is stored under a key that names the
content generation, a number that moves whenever something readers can see changes, and no
entry outlives the moment the next visible post expires. Nothing is ever purged inside the
project and no caller re-checks what it got back.

- generation.py: the generation (and the next expiry each change records with it), its copy
  in the shared cache, keys built on it
- memory.py: the shared cache with a small memory in each process in front of it
- remembered.py: remember(name, build), the one primitive reader code remembers a value with
- fragments.py, chrome.py: cards, articles and the parts of a listing around them, rendered once
- pages.py: the full-page cache for anonymous readers
- invalidation.py: the list of what moves the generation, and the CDN purge

A request flows: the page cache's middleware (a hit ends here) → Wagtail serves the page
(blog/serving.py) → its remembered values and fragments → the templates.
"""
