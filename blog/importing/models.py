"""What an import made, keyed by the source's own ids, so a second run finds it again."""

from django.conf import settings
from django.db import models


class ImportedItem(models.Model):
    """One post or picture an import wrote. `revision` is the revision the import saved: a later
    one means an editor changed the post, which a re-import then leaves alone and reports."""

    source = models.CharField(max_length=255, help_text="The blog it came from.")
    key = models.CharField(max_length=500, help_text="The source's own id for it.")
    page = models.ForeignKey(
        "wagtailcore.Page", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    image = models.ForeignKey(
        "wagtailimages.Image", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revision = models.ForeignKey(
        "wagtailcore.Revision",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    content_hash = models.CharField(max_length=64, blank=True)
    # Redirects are made when the post goes live, never before: a redirect to a scheduled post
    # or a draft would tell readers its address (blog/importing/redirects.py).
    old_paths_waiting = models.JSONField(
        default=list,
        blank=True,
        help_text="The post's old addresses, redirected to it once it is published.",
    )
    # Pictures whose files were not found: a re-run after they are added picks them up.
    missing_pictures = models.JSONField(
        default=list,
        blank=True,
        help_text="The post's pictures that were not in the export, as the export names them.",
    )
    imported_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "blog"
        constraints = [
            models.UniqueConstraint(fields=["source", "key"], name="unique_imported_item")
        ]

    def __str__(self):
        return f"{self.source} {self.key}"


class ImportRun(models.Model):
    """An export a Publisher uploaded in the admin, checked (a dry run) or imported (once the
    Publisher confirmed the dry run) by the worker process after the request that queued it
    (blog/importing/tasks.py); its page follows `done` of `total` until it ends."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

    blog = models.ForeignKey("wagtailcore.Page", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    export_name = models.CharField(max_length=255, help_text="The file the Publisher uploaded.")
    dry_run = models.BooleanField(
        default=False, help_text="A check of the export that writes nothing to the site."
    )
    status = models.CharField(max_length=20, default=QUEUED)
    total = models.PositiveIntegerField(null=True, blank=True)
    done = models.PositiveIntegerField(default=0)
    report = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    # Moves with every post: a running import whose clock stopped was stopped with its server.
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "blog"

    def __str__(self):
        return f"{self.export_name} ({self.status})"


class ImportUpload(models.Model):
    """The export a Publisher uploaded, kept with its dry run until it is confirmed (then with
    the import's run, until the import has read it) or abandoned: in the database, so the worker
    finds it whichever machine took the upload and whichever runs the import. Never in the
    media storage, which may be public: an export holds drafts and private posts."""

    run = models.OneToOneField(ImportRun, on_delete=models.CASCADE, related_name="upload")
    suffix = models.CharField(
        max_length=10, help_text="How the file's name ended: .xml, .json, .zip."
    )
    data = models.BinaryField()

    class Meta:
        app_label = "blog"

    def __str__(self):
        return f"Upload for {self.run}"
