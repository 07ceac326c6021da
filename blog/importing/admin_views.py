"""The admin's import screen, for Publishers: upload an export, read what it would do, confirm,
then follow the import on its own page while the worker process runs it (tasks.py).

For its dry run the upload waits in the server's temporary folder (never in the media storage,
which may be public: an export holds drafts and private posts) under a random name that only
the uploader's session knows, until it is confirmed or replaced, or for a day if the Publisher
never confirms the dry run (sources.sweep_abandoned, at each upload and each scheduler pass).
Confirmed, it moves into the database with its run.
"""

import logging
import secrets
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

from .importer import CREATED, FAILED, SKIPPED, UNCHANGED, UPDATED, Importer, Report
from .models import ImportRun
from .safety import ExportError
from .sources import import_folder, opened, sweep_abandoned
from .tasks import has_stopped, is_waiting_long, queue_import, running_imports

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


logger = logging.getLogger(__name__)


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

    def get_context_data(self, form=None, report=None, **kwargs):
        context = super().get_context_data(**kwargs)
        waiting = self.request.session.get(SESSION_KEY)
        context.update(
            blog=self.blog,
            form=form or ExportUploadForm(),
            report=report,
            worded=worded(report),
            waiting=waiting,
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
        upload = form.cleaned_data["export"]
        path = import_folder() / f"{secrets.token_urlsafe(24)}{Path(upload.name).suffix.lower()}"
        with path.open("wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
        report = self.run(path, dry_run=True)
        if report is None:
            path.unlink(missing_ok=True)
            return self.render_to_response(self.get_context_data(form=form))
        request.session[SESSION_KEY] = {"file": path.name, "name": upload.name}
        return self.render_to_response(self.get_context_data(report=report))

    def confirm(self, request):
        waiting = request.session.pop(SESSION_KEY, None)
        path = import_folder() / Path(waiting["file"]).name if waiting else None
        if path is None or not path.is_file():
            messages.error(request, "That upload is gone; upload the export again.")
            return redirect("blog_import_posts")
        run = queue_import(self.blog, request.user, waiting["name"], path)
        return redirect("blog_import_run", run.pk)

    def run(self, path, dry_run):
        try:
            with opened(path) as (export, media):
                return Importer(self.blog, media, dry_run=dry_run, user=self.request.user).run(
                    export
                )
        except ExportError as error:
            messages.error(self.request, f"The export could not be read: {error}")
            return None
        except Exception:  # noqa: BLE001 - an upload is untrusted: its Publisher gets an answer
            logger.exception("The dry run of an uploaded export stopped")
            messages.error(
                self.request,
                "The export could not be read: it is not shaped like the exports this import "
                "knows. The error is in the server's log.",
            )
            return None

    def forget_upload(self, request):
        waiting = request.session.pop(SESSION_KEY, None)
        if waiting:
            (import_folder() / Path(waiting["file"]).name).unlink(missing_ok=True)


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
