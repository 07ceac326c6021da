"""No admin address answers 5xx, whatever is put in its path or query, for any role.

A probe found six admin addresses that a signed-in user could make answer 500 with a NUL byte
or an id spelt "01". This walks every admin URL pattern in the URL conf (the project's and
Wagtail's), fills its path with odd values and adds odd query parameters, and asks as each
role: a member of Editors, a member of Publishers, a user with nothing but admin access, and a
superuser. A bad request is a 400, a 403, a 404 or a redirect, never a 5xx.
"""

import re
from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth.models import Permission
from django.core.files.base import ContentFile
from django.test import Client
from django.urls import Resolver404, URLResolver, get_resolver, resolve
from wagtail.documents.models import Document

from blog.editorial.roles import EDITORS, PUBLISHERS
from tests.blog.scheduling import make_user
from tests.factories import draft_post, make_image, publish_post

# Every admin address as four roles: PostgreSQL's pass runs it (slow).
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

NUL = "\x00"
HUGE = "99999999999999999999"
# What goes in each path parameter: a NUL, a number spelt oddly, out of any range, or no
# number at all. Each pattern is also asked once with a real object's id.
ODD_VALUES = [NUL, "01", "-1", HUGE, "x"]
# Parameters admin views read (ids, searches, filters, choosers, orderings), each with odd values.
QUERY_NAMES = [
    "id", "p", "page", "q", "ordering", "o", "tag", "collection_id", "parent_page_id",
    "page_type", "locale", "content_type", "model", "for_user", "owner", "status", "next",
    "html_path", "term", "multiple", "picked", "month", "child_of", "descendant_of", "action",
]  # fmt: skip
# A NUL in every parameter, numbers spelt oddly (a view reading one value gets "01", one
# reading them all gets each), and no number at all.
ODD_QUERY = [
    dict.fromkeys(QUERY_NAMES, NUL),
    dict.fromkeys(QUERY_NAMES, [HUGE, "-1", "01"]),
    dict.fromkeys(QUERY_NAMES, "x"),
]
# Admin patterns not asked, each with the reason.
NOT_ASKED = {
    # Signing out ends the session the rest of the walk runs in.
    "wagtailadmin_logout": "signs the walker out",
    "wagtailadmin_error_test": "raises on purpose, to show the admin's 500 page",
}
GROUP = re.compile(r"<(?:(\w+):)?(\w+)>|\(\?P<\w+>[^()]*\)|\([^()]*\)")


def admin_patterns(patterns=None, prefix=""):
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern).lstrip("^")
        if isinstance(pattern, URLResolver):
            yield from admin_patterns(pattern.url_patterns, route)
        elif route.startswith("admin/") and pattern.name not in NOT_ASKED:
            yield route, pattern


def filled(route, value):
    """The route with every parameter set to value, or None if no such address resolves."""
    path = "/" + GROUP.sub(quote(value, safe=""), route).rstrip("$").replace("\\", "")
    try:
        resolve(path.replace("%00", NUL))
    except Resolver404:
        return None
    return path


def addresses(real_id):
    """Every admin pattern, filled with a real object's id and each odd value it accepts."""
    found = {}
    for route, _pattern in admin_patterns():
        paths = {filled(route, value) for value in [str(real_id), *ODD_VALUES]} - {None}
        found.setdefault(route, set()).update(paths)
    return found


@pytest.fixture
def content(blog, author, topic):
    post = publish_post(blog, "Walked post", authors=[author], topics=[topic], image=make_image())
    draft_post(blog, "Walked draft", authors=[author], topics=[topic])
    Document.objects.create(title="Walked", file=ContentFile(b"text", name="walked.txt"))
    return post


def role(name):
    if name == "superuser":
        return make_user("walker-super", superuser=True)
    if name == "admin access only":
        user = make_user("walker-plain")
        user.user_permissions.add(Permission.objects.get(codename="access_admin"))
        return user
    return make_user(f"walker-{name.lower()}", group=name)


def test_every_admin_pattern_is_walked():
    """A pattern whose parameters no value fills would be silently skipped."""
    unfilled = [route for route, paths in addresses(1).items() if not paths]
    assert unfilled == []


@pytest.mark.parametrize("name", [EDITORS, PUBLISHERS, "admin access only", "superuser"])
def test_no_admin_address_answers_5xx_to_odd_input(content, name):
    client = Client(raise_request_exception=False)
    client.force_login(role(name))
    failures = []
    for paths in addresses(content.pk).values():
        # Each odd path, then the odd parameters on the path with a real id where there is one.
        real = min(paths, key=lambda path: str(content.pk) not in path)
        asked = [*sorted(paths), *(f"{real}?{urlencode(q, doseq=True)}" for q in ODD_QUERY)]
        for address in asked:
            status = client.get(address).status_code
            if status >= 500:
                failures.append((status, address))
    assert failures == []


@pytest.mark.parametrize(
    ("method", "address"),
    [
        ("get", "/admin/images/chooser/?tag=%00"),
        ("get", "/admin/api/main/pages/find/?html_path=%00"),
        ("get", "/admin/bulk/wagtailcore/page/delete/?id=%00"),
        ("get", "/admin/tag-autocomplete/?term=%00"),
        ("post", "/admin/editing-sessions/ping/wagtailcore/page/%00/0/"),
        ("post", "/admin/editing-sessions/ping/wagtailcore/page/1/0/?x=%00"),
    ],
)
def test_a_nul_byte_sent_to_the_admin_is_a_readable_400(admin_client, content, method, address):
    response = getattr(admin_client, method)(address)
    assert response.status_code == 400
    assert "This address could not be understood" in response.content.decode()


def test_a_topic_id_spelt_with_a_leading_zero_is_still_chosen(admin_client, topic):
    url = "/admin/snippets/choose/blog/topic/chosen-multiple/"
    response = admin_client.get(url, {"id": [f"0{topic.pk}", "x"]})
    assert response.status_code == 200
    assert [item["id"] for item in response.json()["result"]] == [str(topic.pk)]
