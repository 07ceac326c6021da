"""Old addresses of an imported post lead to it (301) from the moment readers can see it.

The importer leaves a post's old addresses on its ImportedItem; they become redirects when the
post is first published, whether by the import itself, by an editor publishing an imported draft, or
by the scheduler at a scheduled post's go-live. Before that they answer as any unknown address
does: a redirect to a post that is not live would show its new address.
"""

from wagtail.contrib.redirects.models import Redirect
from wagtail.signals import page_published

from blog.models import BlogPage

from .models import ImportedItem


def redirect_waiting_old_paths(sender, instance, **kwargs):
    # Wagtail sends page_published for a publish scheduled for later too; only go-live counts.
    if not instance.live:
        return
    item = ImportedItem.objects.filter(page_id=instance.pk).exclude(old_paths_waiting=[]).first()
    if item is None:
        return
    # Its first go-live here. An imported draft keeps the old blog's date, unless the editor
    # chose another by scheduling it: then it goes out dated as scheduled.
    go_live, dated = instance.go_live_at, instance.first_published_at
    if go_live and dated and go_live > dated:
        BlogPage.objects.filter(pk=instance.pk).update(first_published_at=go_live)
        instance.first_published_at = go_live
    parts = instance.get_url_parts()
    if parts is None or parts[2] is None:
        return  # not reachable on any site: nothing to lead to yet
    site, _root, new_path = parts
    new_path = Redirect.normalise_path(new_path)
    # An address already redirected (by an editor, or an earlier run) is left as it is.
    Redirect.objects.bulk_create(
        [
            Redirect(site_id=site, old_path=old_path, redirect_page=instance, is_permanent=True)
            for old_path in item.old_paths_waiting
            if old_path not in {new_path, "/"}
        ],
        ignore_conflicts=True,
    )
    ImportedItem.objects.filter(pk=item.pk).update(old_paths_waiting=[])


page_published.connect(
    redirect_waiting_old_paths, sender=BlogPage, dispatch_uid="imported_post_old_paths"
)
