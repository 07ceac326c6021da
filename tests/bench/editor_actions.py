"""What an editor and a publisher wait for in the browser, click to page loaded (issue 33,
point 9): `make bench BENCH_ARGS="--only editor-actions"` serves the benchmark blog with
gunicorn and production settings, and this command drives Chromium through it.

Each round, an Editor opens a fresh draft in the editor, opens the preview panel for the first
time, saves a draft and submits it for review; a Publisher approves it, approves a second one
with a go-live time, and opens the Posts list. An action is timed in the browser, on the
browser's clock: from the click (the last one, if Wagtail first asks to go ahead) to the load
event of the page it lands on, every redirect and sub-resource included; for the preview, to
the load event of the preview's frame showing the post; for Save draft, which keeps the editor
open, to the moment its message is shown. Opening the editor is timed from the start of its
navigation. With BENCH_COUNT_QUERIES set on the server (tests/bench/
querycount.py), the pages and preview requests of each action also report the server's
queries and time. The browser keeps its HTTP cache across the rounds, as an editor's does: the
first round fetches the admin's scripts and styles, later ones find them cached (the p50 is an
editor who has used the admin before). The drafts are deleted again at the end.
"""

import json
import os
import re
import statistics
from datetime import timedelta
from types import SimpleNamespace

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.utils import timezone

from blog.editorial.roles import EDITORS, PUBLISHERS, REVIEW_WORKFLOW
from blog.models import BlogPage
from tests.browser.editing import PASSWORD
from tests.factories import draft_post

ACTIONS = (
    "open in editor",
    "first preview",
    "save draft",
    "submit for review",
    "approve",
    "approve with go-live",
    "open Posts list",
)
USERS = {"editor": ("bench-editor", EDITORS), "publisher": ("bench-publisher", PUBLISHERS)}
TITLE = "Editor actions benchmark"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    # Nothing leaves the machine (the demo's video embeds, Gravatar): every other host is
    # unknown. Playwright's request routing would do it too, but routing turns the browser's
    # HTTP cache off, and an editor's browser keeps the admin's scripts between pages.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]
# Approving without a comment: the button that sends the form (the other opens a dialog).
APPROVE = "footer button[data-workflow-action-name='approve']:not([data-workflow-action-modal-url])"
APPROVE_LABEL = re.compile(r"^Approve")

# Every click's time (a person's, not a script's), on the browser's clock, kept in the tab's
# sessionStorage so that the page a click leads to can read it; the load of every frame, on
# its element.
CLOCK = """
document.addEventListener("click", (event) => {
  // The editor's own scripts click too (the remembered tab, as a page opens): not a person.
  if (!event.isTrusted) return;
  sessionStorage.setItem("benchClickAt", String(performance.timeOrigin + performance.now()));
}, true);
// Wagtail's messages area at the top has shown a message (after its own short delay): Save
// draft's. The footer's unsaved-changes warning is a messages controller of its own.
document.addEventListener("w-messages:added", (event) => {
  if (!(event.target instanceof Element && event.target.matches(".messages"))) return;
  sessionStorage.setItem("benchMessageAt", String(performance.timeOrigin + performance.now()));
}, true);
document.addEventListener("load", (event) => {
  if (event.target instanceof HTMLIFrameElement) {
    event.target.benchLoadedAt = performance.timeOrigin + performance.now();
  }
}, true);
"""
# The time since the click (or, without one, since the navigation started) until the page has
# loaded, and how much of it the browser spent after the page's response had arrived (its
# scripts, stylesheets and pictures, up to the load event).
LANDED = """(sinceClick) => {
  const navigation = performance.getEntriesByType("navigation")[0];
  if (!navigation || !(navigation.loadEventEnd > 0)) return false;
  const start = sinceClick
    ? Number(sessionStorage.getItem("benchClickAt")) - performance.timeOrigin : 0;
  return {ms: navigation.loadEventEnd - start,
          browser: navigation.loadEventEnd - navigation.responseEnd};
}"""
# The time since the click until a message was shown on the same page (the browser's work
# after the answer is not told apart from the wait for it).
MESSAGE_SHOWN = """() => {
  const click = Number(sessionStorage.getItem("benchClickAt"));
  const shown = Number(sessionStorage.getItem("benchMessageAt"));
  return shown > click && {ms: shown - click, browser: null};
}"""
PREVIEW_SHOWN = """(title) => {
  const frame = document.querySelector("#w-preview-iframe");
  const inside = frame && frame.benchLoadedAt && frame.contentDocument;
  const shown = inside && [...frame.contentDocument.querySelectorAll("h1")]
    .some((h1) => h1.textContent.includes(title));
  if (!shown) return false;
  const navigation = frame.contentWindow.performance.getEntriesByType("navigation")[0];
  return {ms: frame.benchLoadedAt - Number(sessionStorage.getItem("benchClickAt")),
          browser: navigation.loadEventEnd - navigation.responseEnd};
}"""


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Costs:
    """The server's queries and time for the pages and preview requests a page made."""

    def __init__(self, page):
        self.seen = []
        page.on("response", self.record)

    def record(self, response):
        request = response.request
        is_fetch = request.resource_type in {"fetch", "xhr"}
        is_preview = "/preview/" in request.url and is_fetch
        is_saved_in_place = is_fetch and 'name="save_in_place"' in (request.post_data or "")
        if request.resource_type != "document" and not is_preview and not is_saved_in_place:
            return
        headers = response.headers
        if "x-bench-queries" in headers:
            self.seen.append((int(headers["x-bench-queries"]), float(headers["x-bench-server-ms"])))

    def start(self):
        self.seen.clear()

    def total(self):
        if not self.seen:
            return {"queries": None, "server": None}
        return {
            "queries": sum(q for q, _ in self.seen),
            "server": sum(ms for _, ms in self.seen),
        }


class Command(BaseCommand):
    help = "Time the editor's and publisher's actions in Chromium against --server."

    def add_arguments(self, parser):
        parser.add_argument("--server", required=True, help="The served blog's base address.")
        parser.add_argument("--repeat", type=int, default=7, help="Rounds of every action.")

    def handle(self, *args, server, repeat, **options):
        # Playwright's sync API runs an event loop in this thread, where Django's ORM would
        # otherwise refuse to run.
        os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        drafts = self.prepare(repeat)
        try:
            samples = self.run_rounds(server.rstrip("/"), drafts)
        finally:
            self.clean_up()
        result = {}
        for action in ACTIONS:
            times = [sample["ms"] for sample in samples[action]]

            def median(name, action=action):
                known = [sample[name] for sample in samples[action] if sample[name] is not None]
                return statistics.median(known) if known else None

            result[action] = {
                "p50": statistics.median(times),
                "p90": percentile(times, 0.9),
                "n": len(times),
                "queries": median("queries"),
                "server p50": median("server"),
                "browser p50": median("browser"),
            }
        self.stdout.write(json.dumps({"actions": result}))

    # -- the blog's side ------------------------------------------------------------------------

    def prepare(self, repeat):
        """Two drafts a round, written like the newest live post (body, byline, topics,
        picture); the second already submitted, for the approval with a go-live time."""
        self.clean_up()
        model = BlogPage.objects.live().order_by("-first_published_at", "-pk").first()
        blog = model.get_parent().specific
        users = {}
        for role, (username, group) in USERS.items():
            user, _ = User.objects.get_or_create(username=username)
            user.email, user.is_active = f"{username}@example.com", True
            user.set_password(PASSWORD)  # the browser tests' sign_in types it
            user.save()
            user.groups.add(Group.objects.get(name=group))
            users[role] = user
        fields = {
            "authors": [link.author for link in model.author_links.all()],
            "topics": [link.topic for link in model.topic_links.all()],
            "image": model.hero_image,
            "body": list(model.body.raw_data),
        }
        rounds = []
        for number in range(repeat):
            first = draft_post(blog, f"{TITLE} {number}a", **fields)
            second = draft_post(blog, f"{TITLE} {number}b", **fields)
            second.get_workflow().start(second, users["editor"])
            rounds.append((first, second))
        return rounds

    def clean_up(self):
        for post in BlogPage.objects.filter(title__startswith=TITLE):
            post.delete()

    # -- the browser's side ---------------------------------------------------------------------

    def run_rounds(self, server, drafts):
        from playwright.sync_api import expect, sync_playwright

        expect.set_options(timeout=60_000)
        samples = {action: [] for action in ACTIONS}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                editor = self.sign_in(browser, server, USERS["editor"][0])
                publisher = self.sign_in(browser, server, USERS["publisher"][0])
                for first, second in drafts:
                    for action, figures in self.one_round(server, editor, publisher, first, second):
                        samples[action].append(figures)
            finally:
                browser.close()
        return samples

    def sign_in(self, browser, server, username):
        from tests.browser.editing import sign_in

        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(60_000)
        context.add_init_script(CLOCK)
        page = sign_in(context, server, SimpleNamespace(username=username))
        page.costs = Costs(page)
        return page

    def one_round(self, server, editor, publisher, first, second):
        from playwright.sync_api import expect

        from tests.browser.editing import ALL_AUTOSAVED, open_action_menu

        edit = f"{server}/admin/pages/{first.pk}/edit/"

        editor.costs.start()
        editor.goto(edit)
        yield "open in editor", self.landed(editor, since_click=False)

        toggle = editor.get_by_role("button", name="Toggle preview")
        editor.costs.start()
        toggle.click()
        took = editor.wait_for_function(PREVIEW_SHOWN, arg=first.title).json_value()
        yield "first preview", {**took, **editor.costs.total()}
        toggle.click()  # closed again, so the next round's editor opens without it
        expect(editor.locator("#w-preview-iframe")).to_be_hidden()

        editor.fill("#id_summary", f"{first.summary} Revised.")
        editor.wait_for_function(ALL_AUTOSAVED)
        editor.costs.start()
        editor.locator("footer").get_by_role("button", name="Save draft").click()
        took = editor.wait_for_function(MESSAGE_SHOWN).json_value()
        yield "save draft", {**took, **editor.costs.total()}
        expect(editor.locator(".messages")).to_contain_text(first.title)

        submit = f"Submit to {REVIEW_WORKFLOW}"
        open_action_menu(editor)
        editor.costs.start()
        self.click_to_navigate(
            editor, editor.locator("footer").get_by_role("button", name=submit), submit
        )
        yield "submit for review", self.landed(editor)
        expect(editor.locator(".messages")).to_contain_text("submitted for review")

        publisher.goto(edit)
        open_action_menu(publisher)
        publisher.costs.start()
        self.click_to_navigate(publisher, publisher.locator(APPROVE).first, APPROVE_LABEL)
        yield "approve", self.landed(publisher)
        expect(publisher.locator(".messages")).to_contain_text(first.title)

        publisher.goto(f"{server}/admin/pages/{second.pk}/edit/")
        publisher.get_by_role("tab", name="Publishing").click()
        go_live = timezone.localtime() + timedelta(days=1)
        publisher.fill("#id_go_live_at", go_live.strftime("%Y-%m-%d 09:00"))
        publisher.get_by_role("tab", name="Publishing").click()  # closes the date picker
        publisher.wait_for_function(ALL_AUTOSAVED)
        open_action_menu(publisher)
        publisher.costs.start()
        self.click_to_navigate(publisher, publisher.locator(APPROVE).first, APPROVE_LABEL)
        yield "approve with go-live", self.landed(publisher)
        expect(publisher.locator(".messages")).to_contain_text("scheduled")

        publisher.costs.start()
        posts = publisher.get_by_role("link", name="Posts", exact=True)
        self.click_to_navigate(publisher, posts, "Posts")
        yield "open Posts list", self.landed(publisher)

    def click_to_navigate(self, page, button, label):
        """Click, and go ahead if Wagtail first asks whether to overwrite the version its
        autosave has just made: the time runs from the last click."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        def leaves_the_page(request):
            return request.is_navigation_request() and request.frame == page.main_frame

        with page.expect_event("load"):
            try:
                with page.expect_request(leaves_the_page, timeout=10_000):
                    button.click()
            except PlaywrightTimeoutError:
                page.get_by_role("dialog").get_by_role("button", name=label).click()

    def landed(self, page, since_click=True):
        took = page.wait_for_function(LANDED, arg=since_click).json_value()
        return {**took, **page.costs.total()}
