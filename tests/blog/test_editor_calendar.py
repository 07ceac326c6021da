"""The "Posts" overview and the editorial calendar, as an editor reads them."""

import json
import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from bs4 import BeautifulSoup
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from wagtail.models import Workflow
from wagtail.users.models import UserProfile

from blog.editorial.overview import calendar_posts
from blog.editorial.posts_admin import PostsAdmin
from blog.models import BlogPage
from tests.factories import draft_post, make_author, make_topic, publish_post

pytestmark = pytest.mark.django_db

POSTS_URL = "/admin/blog/blogpage/"


def rows(response):
    """Each listed post as {column heading: cell text}."""
    page = BeautifulSoup(response.content, "html.parser")
    headings = [th.get_text(" ", strip=True) for th in page.select("table.listing thead th")]
    listed = {}
    for tr in page.select("table.listing tbody tr"):
        cells = [" ".join(td.get_text(" ").split()) for td in tr.select("td")]
        row = dict(zip(headings, cells, strict=False))
        title = tr.select_one("td .title-wrapper, td a").get_text(" ", strip=True)
        listed[title] = row
    return listed


def column_of(response, title, column):
    row = next(r for t, r in rows(response).items() if t.startswith(title))
    return next(value for key, value in row.items() if key.startswith(column))


def status_of(response, title):
    return column_of(response, title, "Status")


def schedule(post, when):
    post.go_live_at = when
    post.save_revision().publish()


@pytest.fixture
def newsroom(blog, author, topic, admin_user):
    """One post in each state an editor distinguishes."""
    soon = timezone.now() + timedelta(days=10)
    posts = {
        "draft": draft_post(blog, "Rough draft", authors=[author], topics=[topic]),
        "review": draft_post(blog, "Waiting for review", authors=[author], topics=[topic]),
        "scheduled": draft_post(blog, "Coming soon", authors=[author], topics=[topic]),
        "live": publish_post(blog, "Out there", authors=[author], topics=[topic]),
        "expired": publish_post(blog, "Gone stale", authors=[author], topics=[topic]),
    }
    Workflow.objects.get(name="Moderators approval").start(posts["review"], admin_user)
    schedule(posts["scheduled"], soon)
    BlogPage.objects.filter(pk=posts["expired"].pk).update(
        expire_at=timezone.now() - timedelta(hours=1)
    )
    return posts


def test_the_overview_names_each_posts_status(admin_client, newsroom):
    response = admin_client.get(POSTS_URL)
    assert response.status_code == 200
    assert status_of(response, "Rough draft") == "Draft"
    assert status_of(response, "Waiting for review") == "In review"
    assert status_of(response, "Coming soon").startswith("Scheduled")
    assert status_of(response, "Out there") == "Live"
    assert status_of(response, "Gone stale") == "Expired"


def test_a_scheduled_go_live_shows_in_the_editors_own_time_zone(admin_client, admin_user, newsroom):
    profile = UserProfile.get_for_user(admin_user)
    profile.current_time_zone = "Asia/Tokyo"
    profile.save()
    go_live = newsroom["scheduled"].get_latest_revision().approved_go_live_at
    tokyo = timezone.localtime(go_live, timezone=ZoneInfo("Asia/Tokyo"))
    response = admin_client.get(POSTS_URL)
    assert column_of(response, "Coming soon", "Scheduled go-live") == (
        f"{tokyo:%-d %b %Y, %H:%M} Asia/Tokyo"
    )
    # Said once: the status names the state, the column the time.
    assert status_of(response, "Coming soon") == "Scheduled"


def test_the_overview_filters_by_status_topic_and_author(admin_client, blog, newsroom):
    other_topic = make_topic("Networking")
    other_author = make_author("Linus")
    publish_post(blog, "Switch fabric", authors=[other_author], topics=[other_topic])

    scheduled = rows(admin_client.get(POSTS_URL, {"status": "scheduled"}))
    assert [title.split(" ")[0:2] for title in scheduled] == [["Coming", "soon"]]
    by_topic = rows(admin_client.get(POSTS_URL, {"topic": "networking"}))
    assert len(by_topic) == 1 and next(iter(by_topic)).startswith("Switch fabric")
    by_author = rows(admin_client.get(POSTS_URL, {"author": "linus"}))
    assert len(by_author) == 1 and next(iter(by_author)).startswith("Switch fabric")


def test_the_overview_searches_titles(admin_client, newsroom):
    found = rows(admin_client.get(POSTS_URL, {"q": "stale"}))
    assert len(found) == 1 and next(iter(found)).startswith("Gone stale")


def test_the_overview_sorts_by_first_publication(admin_client, blog, author, topic):
    now = timezone.now()
    publish_post(blog, "Older", authors=[author], topics=[topic], published_at=now - timedelta(3))
    publish_post(blog, "Newer", authors=[author], topics=[topic], published_at=now - timedelta(1))
    page = BeautifulSoup(admin_client.get(POSTS_URL).content, "html.parser")
    sort_link = next(
        a["href"] for a in page.select("thead th a") if "First published" in a.get_text()
    )
    titles = list(rows(admin_client.get(POSTS_URL + sort_link)))
    assert [t.split(" ")[0] for t in titles] == ["Older", "Newer"]


def test_each_listed_post_links_to_its_editor_preview_and_share_screen(admin_client, newsroom):
    html = admin_client.get(POSTS_URL).content.decode()
    post = newsroom["draft"]
    assert f"/admin/pages/{post.pk}/edit/" in html
    assert f"/admin/pages/{post.pk}/view_draft/" in html
    assert f"/admin/blog/posts/{post.pk}/share-links/" in html


def edit_title(post, title):
    """What an editor does in the page editor: change the title and save a draft."""
    post.refresh_from_db()
    post.title = title
    post.save_revision()


@pytest.fixture
def unpublished_changes(blog, author, topic, admin_user):
    """Posts whose newest draft is not what readers see (or will see) yet."""
    live = publish_post(blog, "Old headline", authors=[author], topics=[topic])
    edit_title(live, "New headline")
    scheduled = draft_post(blog, "Launch plan", authors=[author], topics=[topic])
    schedule(scheduled, timezone.now() + timedelta(days=5))
    edit_title(scheduled, "Launch plan, revised")
    changing = publish_post(blog, "Price list", authors=[author], topics=[topic])
    schedule(changing, timezone.now() + timedelta(days=2))
    reviewed = publish_post(blog, "Pricing FAQ", authors=[author], topics=[topic])
    edit_title(reviewed, "Pricing FAQ, corrected")
    Workflow.objects.get(name="Moderators approval").start(reviewed, admin_user)
    return {"live": live, "scheduled": scheduled, "changing": changing, "reviewed": reviewed}


def test_a_live_post_with_a_newer_draft_shows_live_plus_draft_and_the_drafts_title(
    admin_client, unpublished_changes
):
    listed = rows(admin_client.get(POSTS_URL))
    assert "Old headline" not in " ".join(listed)
    status = status_of(admin_client.get(POSTS_URL), "New headline")
    assert status == "Live + draft Live title: Old headline"


def test_a_scheduled_post_edited_after_approval_shows_scheduled_plus_draft(
    admin_client, unpublished_changes
):
    status = status_of(admin_client.get(POSTS_URL), "Launch plan, revised")
    assert status.startswith("Scheduled + draft")


def test_a_live_post_with_a_scheduled_change_shows_live_plus_scheduled(
    admin_client, unpublished_changes
):
    assert status_of(admin_client.get(POSTS_URL), "Price list").startswith("Live + scheduled")


def test_a_live_post_whose_changes_await_review_shows_live_plus_in_review(
    admin_client, unpublished_changes
):
    status = status_of(admin_client.get(POSTS_URL), "Pricing FAQ, corrected")
    assert status == "Live + in review Live title: Pricing FAQ"


def test_filtering_by_status_finds_each_post_under_every_state_its_label_names(
    admin_client, unpublished_changes, newsroom
):
    def titles(status):
        return set(rows(admin_client.get(POSTS_URL, {"status": status})))

    assert titles("live") == {"New headline", "Price list", "Pricing FAQ, corrected", "Out there"}
    assert titles("draft") == {"New headline", "Launch plan, revised", "Rough draft"}
    assert titles("scheduled") == {"Launch plan, revised", "Price list", "Coming soon"}
    assert titles("in_review") == {"Pricing FAQ, corrected", "Waiting for review"}


def test_the_overview_finds_a_post_by_the_title_of_its_newest_draft(
    admin_client, unpublished_changes
):
    found = rows(admin_client.get(POSTS_URL, {"q": "new headline"}))
    assert len(found) == 1 and next(iter(found)).startswith("New headline")


def count_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("user", ["admin", "editor"])
def test_the_overview_costs_the_same_queries_for_5_or_30_posts(
    user, admin_client, editor_client, blog, author, topic
):
    client = admin_client if user == "admin" else editor_client
    for n in range(5):
        publish_post(blog, f"Post {n}", authors=[author], topics=[topic])
    few = count_queries(client, POSTS_URL)
    for n in range(5, 30):
        draft_post(blog, f"Post {n}", authors=[author], topics=[topic])
    assert count_queries(client, POSTS_URL) == few


# An editor's page rights take 4 queries more than a superuser's. One of them finds the branches
# readers cannot see (for the featured slot's label), remembered until the next change.
@pytest.mark.parametrize(("user", "budget"), [("admin", 19), ("editor", 23)])
def test_the_overview_stays_within_its_query_budget(
    user, budget, admin_client, editor_client, blog, author, topic
):
    """modeladmin builds the list twice and its base once more for the total: the filters'
    choices, the blog's featured post and the user's rights were looked up three times."""
    client = admin_client if user == "admin" else editor_client
    publish_post(blog, "Featured", authors=[author], topics=[topic], featured=True)
    for n in range(3):
        publish_post(blog, f"Post {n}", authors=[author], topics=[topic])
    with CaptureQueriesContext(connection) as queries:
        assert client.get(POSTS_URL).status_code == 200
    assert len(queries) <= budget, "\n".join(q["sql"][:150] for q in queries)


CALENDAR_URL = "/admin/calendar/"


def calendar(client, month=None):
    response = client.get(CALENDAR_URL, {"month": month} if month else {})
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser")


def day_cell(page, day):
    """The grid's cell for `day` (a date)."""
    return page.select_one(f"td time[datetime='{day:%Y-%m-%d}']").find_parent("td")


def entries(cell):
    """What a day lists, as an editor reads it: 'Published 09:30 Title' (cards and reschedule
    buttons left out)."""
    listed = []
    for item in cell.select("li.editorial-calendar__entry"):
        item.find(class_="editorial-calendar__card").decompose()
        for button in item.select(".editorial-calendar__reschedule"):
            button.decompose()
        listed.append(" ".join(item.get_text(" ").split()))
    return listed


def test_the_calendar_is_a_month_of_weeks_from_monday_with_today_marked(admin_client):
    page = calendar(admin_client)
    today = timezone.localdate()
    assert page.select_one("table caption").get_text(" ", strip=True) == (
        f"{today:%B %Y}, times in UTC"
    )
    headers = [th.get_text(strip=True) for th in page.select("thead th[scope=col]")]
    assert headers == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    assert day_cell(page, today)["aria-current"] == "date"
    assert "Today" in day_cell(page, today).get_text()
    first_day = page.select_one("tbody td time")["datetime"]
    assert date.fromisoformat(first_day).weekday() == 0


def test_a_post_published_today_is_on_todays_cell_linked_to_its_editor(
    admin_client, blog, author, topic
):
    post = publish_post(blog, "Fresh news", authors=[author], topics=[topic])
    cell = day_cell(calendar(admin_client), timezone.localdate())
    published = timezone.localtime(post.first_published_at)
    assert entries(cell) == [f"Published {published:%H:%M} Fresh news"]
    assert cell.find("a", string="Fresh news")["href"] == f"/admin/pages/{post.pk}/edit/"


def test_past_posts_and_their_expiry_show_on_their_days_in_time_order(
    admin_client, blog, author, topic
):
    march = datetime(2025, 3, 1, tzinfo=UTC)
    early = publish_post(
        blog,
        "Early bird",
        authors=[author],
        topics=[topic],
        published_at=march + timedelta(days=9, hours=9, minutes=30),
    )
    publish_post(
        blog,
        "Late owl",
        authors=[author],
        topics=[topic],
        published_at=march + timedelta(days=9, hours=7),
    )
    BlogPage.objects.filter(pk=early.pk).update(expire_at=march + timedelta(days=19, hours=18))

    page = calendar(admin_client, "2025-03")
    assert entries(day_cell(page, date(2025, 3, 10))) == [
        "Published 07:00 Late owl",
        "Published 09:30 Early bird",
    ]
    assert entries(day_cell(page, date(2025, 3, 20))) == ["Expires 18:00 Early bird"]


def test_next_months_go_live_is_one_click_away(admin_client, blog, author, topic):
    this_month = timezone.localdate().replace(day=1)
    following = (this_month + timedelta(days=32)).replace(day=1)
    coming = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    schedule(coming, datetime.combine(following + timedelta(days=14), time(9, 30), tzinfo=UTC))

    page = calendar(admin_client)
    assert "Launch notes" not in page.select_one("table").get_text()
    link = page.find("a", string=re.compile(f"{following:%B %Y}"))
    page = BeautifulSoup(admin_client.get(CALENDAR_URL + link["href"]).content, "html.parser")
    cell = day_cell(page, following + timedelta(days=14))
    assert entries(cell) == ["Goes live 09:30 Launch notes"]


def ask_to_go_live_in_review(post, when, user):
    """An editor's newest version asks for a go-live and is sent for review."""
    post = BlogPage.objects.get(pk=post.pk)
    post.go_live_at = when
    post.save_revision(user=user)
    Workflow.objects.get(name="Moderators approval").start(post, user)


def test_a_go_live_awaiting_approval_shows_as_such_not_as_scheduled(
    admin_client, admin_user, blog, author, topic
):
    """Neither scheduled nor lost: a post in review goes live at its go-live only once a
    Publisher approves it, which the calendar says on that day."""
    this_month = timezone.localdate().replace(day=1)
    day = (this_month + timedelta(days=45)).replace(day=15)
    when = datetime.combine(day, time(9, 30), tzinfo=UTC)
    waiting = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    ask_to_go_live_in_review(waiting, when, admin_user)
    live = publish_post(blog, "Out there", authors=[author], topics=[topic])
    ask_to_go_live_in_review(live, when + timedelta(hours=1), admin_user)
    draft_post(blog, "Not submitted", authors=[author], topics=[topic], go_live_at=when)

    cell = day_cell(calendar(admin_client, f"{day:%Y-%m}"), day)
    waiting_entry = cell.find("li", class_="editorial-calendar__entry--awaits_approval")
    card = waiting_entry.find(class_="editorial-calendar__card").get_text(" ", strip=True)
    assert card.startswith("In review")
    assert entries(cell) == [
        "Awaiting approval 09:30 Launch notes",
        "Awaiting approval 10:30 Out there",
    ]
    assert not cell.select(".editorial-calendar__reschedule")  # nothing scheduled to move


def test_once_approved_a_go_live_awaiting_approval_shows_as_going_live(
    admin_client, admin_user, blog, author, topic
):
    when = timezone.now() + timedelta(days=3)
    at = timezone.localtime(when)
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    ask_to_go_live_in_review(post, when, admin_user)
    cell = day_cell(calendar(admin_client, f"{at:%Y-%m}"), at.date())
    assert entries(cell) == [f"Awaiting approval {at:%H:%M} Launch notes"]

    BlogPage.objects.get(pk=post.pk).current_workflow_state.cancel(user=admin_user)
    schedule(BlogPage.objects.get(pk=post.pk), when)  # as approving does
    cell = day_cell(calendar(admin_client, f"{at:%Y-%m}"), at.date())
    assert entries(cell) == [f"Goes live {at:%H:%M} Launch notes"]


def test_each_entry_carries_a_card_with_status_summary_authors_and_preview(
    admin_client, blog, author, topic
):
    coming = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    schedule(coming, timezone.now() + timedelta(hours=1))
    entry = calendar(admin_client, f"{timezone.localdate():%Y-%m}").find(
        "li", class_="editorial-calendar__entry"
    )
    card = entry.find(class_="editorial-calendar__card")
    text = " ".join(card.get_text(" ").split())
    assert text.startswith("Scheduled · by Ada Lovelace")
    assert "A summary of Launch notes." in text
    assert card.find("a", string="Preview")["href"] == f"/admin/pages/{coming.pk}/view_draft/"


def test_times_are_in_the_editors_own_zone(admin_client, admin_user, blog, author, topic):
    profile = UserProfile.get_for_user(admin_user)
    profile.current_time_zone = "Asia/Tokyo"
    profile.save()
    publish_post(
        blog,
        "Night shift",
        authors=[author],
        topics=[topic],
        published_at=datetime(2025, 3, 14, 23, 30, tzinfo=UTC),
    )

    page = calendar(admin_client, "2025-03")
    assert "times in Asia/Tokyo" in page.select_one("caption").get_text()
    assert entries(day_cell(page, date(2025, 3, 14))) == []
    assert entries(day_cell(page, date(2025, 3, 15))) == ["Published 08:30 Night shift"]


@pytest.mark.parametrize("month", ["2025-13", "1999-12", "2101-01", "March", "2025-3", "\x01"])
def test_a_month_the_calendar_cannot_show_gives_this_month_and_says_why(admin_client, month):
    response = admin_client.get(CALENDAR_URL, {"month": month}, follow=True)
    assert response.status_code == 200
    page = BeautifulSoup(response.content, "html.parser")
    assert page.select_one("caption").get_text().startswith(f"{timezone.localdate():%B %Y}")
    assert "months from 2000 to 2100" in page.get_text()


def test_the_calendar_costs_the_same_queries_for_3_or_20_posts(admin_client, blog, author, topic):
    march = datetime(2025, 3, 3, 12, tzinfo=UTC)

    def add(names):
        for n in names:
            post = publish_post(
                blog,
                f"Post {n}",
                authors=[author],
                topics=[topic],
                published_at=march + timedelta(days=n),
            )
            BlogPage.objects.filter(pk=post.pk).update(expire_at=march + timedelta(days=n + 1))

    def listed_and_queries():
        with CaptureQueriesContext(connection) as queries:
            page = calendar(admin_client, "2025-03")
        listed = page.select("li.editorial-calendar__entry")
        return len(listed), len(queries)

    add(range(3))
    listed, few = listed_and_queries()
    assert listed == 6  # each post's publication and expiry
    add(range(3, 20))
    assert listed_and_queries() == (40, few)


def plan_nodes(queryset, analyze=False):
    """Every step of PostgreSQL's plan for the queryset's SQL (run, with `analyze`)."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE {analyze}, FORMAT JSON) {sql}", params)
        (plan,) = cursor.fetchone()
    plan = json.loads(plan) if isinstance(plan, str) else plan
    found, nodes = [], [plan[0]["Plan"]]
    while nodes:
        node = nodes.pop()
        found.append(node)
        nodes += node.get("Plans", [])
    return found


def subquery_runs(queryset):
    """How many times PostgreSQL ran each subquery of the queryset's SQL."""
    return [
        node["Actual Loops"]
        for node in plan_nodes(queryset, analyze=True)
        if node.get("Parent Relationship") == "SubPlan"
    ]


@pytest.mark.postgres
def test_the_overview_reads_its_posts_in_order_rather_than_sorting_them_all(
    admin_user, blog, author, topic
):
    """Sorting every post for each screen of 50 grew with the blog: 68 ms at 10,000 posts."""
    for n in range(3):
        publish_post(blog, f"Post {n}", authors=[author], topics=[topic])
    request = RequestFactory().get(POSTS_URL)
    request.user = admin_user
    with connection.cursor() as cursor:
        # A test's few rows are cheaper to scan and sort; ask for the plan a big blog gets.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
    first_screen = PostsAdmin().get_queryset(request)[:50]
    assert "Sort" not in {node["Node Type"] for node in plan_nodes(first_screen)}


@pytest.mark.postgres
def test_the_calendar_finds_the_months_schedules_without_a_lookup_per_post(
    admin_user, blog, author, topic
):
    """Filtering on each post's scheduled go-live looked it up once for every post of the blog:
    at 10,000 posts, most of the calendar's time."""
    for n in range(20):
        publish_post(
            blog,
            f"Post {n}",
            authors=[author],
            topics=[topic],
            published_at=datetime(2025, 3, 3, tzinfo=UTC),
        )
    june = (datetime(2025, 6, 1, tzinfo=UTC), datetime(2025, 7, 1, tzinfo=UTC))
    assert max(subquery_runs(calendar_posts(admin_user, *june))) <= 1


def test_the_calendar_and_posts_are_in_the_admin_menu(admin_client):
    html = admin_client.get("/admin/").content.decode()
    assert "/admin/calendar/" in html
    assert POSTS_URL in html
