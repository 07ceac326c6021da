"""Bringing an existing blog in: WordPress (WXR), Ghost (JSON) and Markdown exports become posts,
topics, authors, pictures and redirects from the old addresses (`manage.py import_posts`).

Parsers (wxr.py, ghost.py, markdown.py) read untrusted files into records.py's Export; the
importer (importer.py) writes it, one post per transaction, keyed by the source's own ids.
"""
