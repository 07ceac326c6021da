"""The admin's import screen, for Publishers: upload an export, read what it would do once the
worker process has checked it (the dry run), confirm, then follow the import the worker runs
(tasks.py); both on the run's own page.

The upload waits in the database with its dry run (never in the media storage, which may be
public: an export holds drafts and private posts) until it is confirmed, replaced by the
Publisher's next upload, or for a day if the Publisher never confirms the dry run
(sources.sweep_after_pass, at each scheduler pass). Confirmed, it moves to the import's run.
"""

from pathlib import Path

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.views.generic import TemplateView, View
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin

from blog.models import BlogIndexPage

from .importer import CREATED, FAILED, SKIPPED, UNCHANGED, UPDATED, Report
from .models import ImportRun, ImportUpload
from .sources import sweep_abandoned
from .tasks import has_stopped, is_waiting_long, queue_dry_run, queue_import, running_imports

SESSION_KEY = "blog_import_upload"
UPLOAD_SUFFIXES = {".xml", ".json", ".zip"}
# (in a dry run, once imported): a dry run has written nothing, so it says what would happen.
RESULT_WORDS = {
    CREATED: ("Would be created", "Created"),
    UPDATED: ("Would be updated", "Updated"),
    UNCHANGED: ("Would stay unchanged", "Unchanged"),
    SKIPPED: ("Would be skipped", "Skipped"),
    FAILED: ("Would fail", "Failed"),
}


def blog_the_user_publishes(user):
    """The blog this user may publish in; imports publish, so only Publishers may import."""
    for blog in BlogIndexPage.objects.all():
        if blog.permissions_for_user(user).can_publish():
            return blog
    return None


def worded(report):
    """The report's table, and the posts it has something to say about, in the Publisher's
    words for a dry run or a finished import."""
    if report is None:
        return None
    tense = 0 if report.dry_run else 1
    return {
        # What readers will see leads, as in the command's report.
        "headline": report.headline(),
        "counts": [(RESULT_WORDS[result][tense], n) for result, n in report.counts().items()],
        "noted": [
            (RESULT_WORDS[outcome.result][tense], outcome)
            for outcome in report.outcomes
            if outcome.reason or outcome.notes
        ],
    }


class ExportUploadForm(forms.Form):
    export = forms.FileField(
        label="Export file",
        help_text="WordPress: Tools › Export, the .xml file. Ghost: Settings › Labs › Export, the "
        ".json file. Either may be a .zip with its pictures (wp-content/uploads or "
        "content/images); pictures not in the zip are listed, and their posts still come in. "
        "A Jekyll or Hugo site: a .zip of its folder.",
    )

    def clean_export(self):
        upload = self.cleaned_data["export"]
        if Path(upload.name).suffix.lower() not in UPLOAD_SUFFIXES:
            raise forms.ValidationError("Choose a .xml, .json or .zip export.")
        return upload


class PublishersOnly:
    def dispatch(self, request, *args, **kwargs):
        self.blog = blog_the_user_publishes(request.user)
        if self.blog is None:
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class OneRun(PublishersOnly):
    """A view of one import of this Publisher's blog (404 for another blog's)."""

    @cached_property
    def run(self):
        return get_object_or_404(ImportRun, pk=self.kwargs["run_id"], blog=self.blog)


class ImportPostsView(PublishersOnly, WagtailAdminTemplateMixin, TemplateView):
    template_name = "blog/admin/import_posts.html"
    header_icon = "download"
    page_title = "Import posts"

    def get_breadcrumbs_items(self):
        return [*self.breadcrumbs_items, {"url": "", "label": self.page_title}]

    def get_context_data(self, form=None, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            blog=self.blog,
            form=form or ExportUploadForm(),
            # A Publisher who left an import's page finds it again here.
            running=running_imports(self.blog),
        )
        return context

    def post(self, request, *args, **kwargs):
        if "confirm" in request.POST:
            return self.confirm(request)
        form = ExportUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        self.forget_upload(request)
        sweep_abandoned()
        run = queue_dry_run(self.blog, request.user, form.cleaned_data["export"])
        request.session[SESSION_KEY] = run.pk
        return redirect("blog_import_run", run.pk)

    def confirm(self, request):
        dry_run = ImportRun.objects.filter(
            pk=request.POST["confirm"] if request.POST["confirm"].isdigit() else None,
            blog=self.blog,
            dry_run=True,
        ).first()
        run = queue_import(dry_run, request.user) if dry_run else None
        if run is None:
            messages.error(request, "That upload is gone; upload the export again.")
            return redirect("blog_import_posts")
        return redirect("blog_import_run", run.pk)

    def forget_upload(self, request):
        """A new upload replaces the one this Publisher checked and did not confirm."""
        waiting = request.session.pop(SESSION_KEY, None)
        if isinstance(waiting, int):
            ImportUpload.objects.filter(
                run=waiting, run__dry_run=True, run__status=ImportRun.DONE
            ).delete()


class ImportRunView(OneRun, WagtailAdminTemplateMixin, TemplateView):
    """One import's progress (“120 of 300 posts”), then what it did."""

    template_name = "blog/admin/import_run.html"
    header_icon = "download"
    page_title = "Import posts"

    def get_breadcrumbs_items(self):
        return [
            *self.breadcrumbs_items,
            {"url": reverse("blog_import_posts"), "label": self.page_title},
            {"url": "", "label": self.run.export_name},
        ]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        run = self.run
        report = Report.from_json(run.report) if run.report else None
        context.update(
            run=run,
            stopped=has_stopped(run),
            waiting_long=is_waiting_long(run),
            report=report,
            worded=worded(report),
            blog=self.blog,
        )
        return context


class ImportRunProgressView(OneRun, View):
    """What the run's page asks every few seconds while the import runs."""

    def get(self, request, run_id):
        run = self.run
        return JsonResponse(
            {
                "status": "stopped" if has_stopped(run) else run.status,
                "done": run.done,
                "total": run.total,
            }
        )
