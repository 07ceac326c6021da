"""Server time of the admin pages an editor waits for, on whatever DATABASE_URL and settings it
runs with (`make bench` runs it with production settings on its benchmark blogs).

Requests go through Django's whole stack in this process (Django's test Client, logged in as a
Publisher): middleware, sessions, the view, templates and the database, without a web server or
a browser in between. The post measured is the newest live one; what saving adds to it (the
revisions, their history entries, its draft state) is taken out again at the end, so a kept
database measures the same thing on every run.
"""

import json
import statistics
import time

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from wagtail.blocks import BooleanBlock, ChooserBlock, ListBlock, StreamBlock, StructBlock
from wagtail.contrib.typed_table_block.blocks import TypedTableBlock
from wagtail.models import PageLogEntry, Revision
from wagtail.test.utils.form_data import nested_form_data, querydict_from_html

from blog.editorial.roles import PUBLISHERS
from blog.models import BlogPage

PAGES = ("edit", "posts list", "calendar", "preview", "save draft")
BENCH_USERNAME = "bench-publisher"
# What saving a draft changes on the page row; put back afterwards.
DRAFT_STATE = (
    "draft_title",
    "has_unpublished_changes",
    "latest_revision",
    "latest_revision_created_at",
)


def block_form_data(block, value):
    """What the editor's JavaScript posts for `value` of `block`, in `nested_form_data` shape.

    The edit page renders a StreamField as data for its scripts, not as inputs, so a form read
    back from the HTML has no body; this writes the post's own body the way the browser would.
    """
    if isinstance(block, StreamBlock):
        children = {
            str(n): {
                "type": child.block_type,
                "value": block_form_data(child.block, child.value),
                "id": child.id or "",
                "order": str(n),
                "deleted": "",
            }
            for n, child in enumerate(value)
        }
        return {**children, "count": str(len(children))}
    if isinstance(block, StructBlock):
        return {
            name: block_form_data(child, value.get(name))
            for name, child in block.child_blocks.items()
        }
    if isinstance(block, ListBlock):
        children = {
            str(n): {
                "value": block_form_data(block.child_block, child.value),
                "id": child.id or "",
                "order": str(n),
                "deleted": "",
            }
            for n, child in enumerate(value.bound_blocks)
        }
        return {**children, "count": str(len(children))}
    if isinstance(block, TypedTableBlock):
        return {
            "caption": value.caption,
            "column": {
                **{
                    str(n): {
                        "type": column["block"].name,
                        "heading": column["heading"],
                        "order": str(n),
                        "deleted": "",
                    }
                    for n, column in enumerate(value.columns)
                },
                "count": str(len(value.columns)),
            },
            "row": {
                **{str(n): {"order": str(n), "deleted": ""} for n in range(len(value.row_data))},
                "count": str(len(value.row_data)),
            },
            "cell": {
                str(r): {
                    str(c): block_form_data(column["block"], cell)
                    for c, (column, cell) in enumerate(
                        zip(value.columns, row["values"], strict=True)
                    )
                }
                for r, row in enumerate(value.row_data)
            },
        }
    if isinstance(block, BooleanBlock):
        return "on" if value else ""
    if isinstance(block, ChooserBlock):
        return value.pk if value else ""
    state = block.get_form_state(value)
    if isinstance(state, list):  # a select's one chosen value
        return state[0] if state else ""
    return "" if state is None else state


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class AdminPages:
    """The requests behind each measured page, for one logged-in client and one post."""

    def __init__(self, client, post):
        self.client = client
        self.post = post
        self.edit_url = reverse("wagtailadmin_pages:edit", args=[post.pk])
        self.preview_url = reverse("wagtailadmin_pages:preview_on_edit", args=[post.pk])
        self.saves = 0
        response = self.expect(client.get(self.edit_url), 200)
        self.form = querydict_from_html(response.content.decode(), form_id="page-edit-form")
        for key, value in nested_form_data(
            {"body": block_form_data(post.body.stream_block, post.body)}
        ).items():
            self.form[key] = value

    def expect(self, response, status):
        if response.status_code != status:
            raise AssertionError(
                f"{response.request['PATH_INFO']}: {response.status_code}, not {status}"
            )
        return response

    def request(self, page):
        match page:
            case "edit":
                self.expect(self.client.get(self.edit_url), 200)
            case "posts list":
                self.expect(self.client.get(reverse("blog_blogpage_modeladmin_index")), 200)
            case "calendar":
                self.expect(self.client.get(reverse("blog_calendar")), 200)
            case "preview":
                # As the preview panel does: send the form as it stands, then load the preview.
                answer = self.expect(self.client.post(self.preview_url, self.form), 200).json()
                if not answer["is_valid"]:
                    raise AssertionError(f"The preview refused the edit form: {answer}")
                self.expect(self.client.get(self.preview_url, {"in_preview_panel": "true"}), 200)
            case "save draft":
                # A real change each time, as an editor's: an unchanged form may save nothing.
                self.saves += 1
                form = self.form.copy()
                form["seo_title"] = f"{self.post.title} ({self.saves})"
                response = self.expect(self.client.post(self.edit_url, form), 302)
                if response["Location"] != self.edit_url:
                    raise AssertionError(f"Save draft went to {response['Location']}")


class Command(BaseCommand):
    help = "Time the admin pages an editor waits for (server side) and print p50/p95 as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--repeat", type=int, default=20, help="Timed requests per page.")
        parser.add_argument(
            "--pages", nargs="+", choices=PAGES, default=list(PAGES), help="Only these pages."
        )

    def handle(self, *args, repeat, pages, **options):
        post = BlogPage.objects.live().order_by("-first_published_at", "-pk").first()
        if post is None:
            self.stderr.write("No live post to measure: run load_demo first.")
            return
        client = Client(HTTP_HOST=self.host())
        client.force_login(self.publisher())
        before = self.draft_state(post)
        try:
            admin = AdminPages(client, post)
            samples = {page: [] for page in pages}
            cpu = {page: [] for page in pages}
            # One untimed round first: each page's templates, URL patterns and caches warm up
            # as they would in a server that has been up for a while.
            for round_ in range(repeat + 1):
                # Pages take turns, so a burst of load elsewhere on the machine hits all alike.
                for page in pages:
                    started, started_cpu = time.perf_counter(), time.process_time()
                    admin.request(page)
                    if round_:
                        samples[page].append((time.perf_counter() - started) * 1000)
                        cpu[page].append((time.process_time() - started_cpu) * 1000)
            queries = {}
            for page in pages:
                with CaptureQueriesContext(connection) as captured:
                    admin.request(page)
                queries[page] = len(captured)
        finally:
            client.delete(reverse("wagtailadmin_pages:preview_on_edit", args=[post.pk]))
            client.logout()
            self.restore(post, before)
        result = {
            page: {
                "p50": statistics.median(samples[page]),
                "p95": percentile(samples[page], 0.95),
                # Python's own work, without the database's or the waits for a busy CPU: the
                # steadier figure on a shared machine.
                "cpu p50": statistics.median(cpu[page]),
                "queries": queries[page],
                "n": len(samples[page]),
            }
            for page in pages
        }
        self.stdout.write(json.dumps({"post": post.title, "pages": result}))

    def host(self):
        named = [
            host
            for host in settings.ALLOWED_HOSTS
            if host not in ("*", "") and not host.startswith(".")
        ]
        return named[0] if named else "localhost"

    def publisher(self):
        user, _ = User.objects.get_or_create(username=BENCH_USERNAME, defaults={"is_active": True})
        user.groups.add(Group.objects.get(name=PUBLISHERS))
        return user

    def draft_state(self, post):
        return {
            "page": BlogPage.objects.filter(pk=post.pk)
            .values(*[f"{name}" for name in DRAFT_STATE])
            .get(),
            "revision": Revision.objects.order_by("-pk").values_list("pk", flat=True).first() or 0,
            "log_entry": PageLogEntry.objects.order_by("-pk").values_list("pk", flat=True).first()
            or 0,
        }

    def restore(self, post, before):
        with transaction.atomic():
            PageLogEntry.objects.filter(page=post, pk__gt=before["log_entry"]).delete()
            BlogPage.objects.filter(pk=post.pk).update(**before["page"])
            post.revisions.filter(pk__gt=before["revision"]).delete()
