"""Synthetic posts written in bulk for benchmarks behave like posts an editor published."""

import os

import pytest
from bs4 import BeautifulSoup
from django.core.management import call_command
from wagtail.models import Page

from blog.models import BlogIndexPage, BlogPage
from tests.search.helpers import result_titles

pytestmark = pytest.mark.django_db


def load_demo(posts):
    with open(os.devnull, "w") as devnull:
        call_command("load_demo", posts=posts, no_admin=True, stdout=devnull)


def card_titles(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return [a.get_text(strip=True) for a in soup.select(".card-grid .card__title a")]


def test_bulk_written_posts_read_like_published_ones(client, demo_site):
    load_demo(30)
    generated = BlogPage.objects.filter(slug__startswith="generated-")
    assert generated.count() == 30
    assert Page.find_problems() == ([], [], [], [], [])
    blog = BlogIndexPage.objects.get()
    assert blog.numchild == blog.get_children().count() == 43

    # The 13 reference posts come first (one featured above the grid), then Field note 1, 2, …
    assert "All posts · 43" in " ".join(
        BeautifulSoup(client.get("/blog/").content, "html.parser").get_text(" ").split()
    )
    assert card_titles(client.get("/blog/", {"page": 2}))[0] == "Field note 1: Restore latency"
    assert (
        card_titles(client.get("/blog/", {"page": 4}))[-1] == "Field note 30: Checkpoint intervals"
    )

    post = generated.get(slug="generated-7")
    assert post.url == "/blog/generated-7/"
    response = client.get(post.url)
    assert response.status_code == 200
    soup = BeautifulSoup(response.content, "html.parser")
    assert [h1.get_text(strip=True) for h1 in soup.find_all("h1")] == [post.title]
    assert "Cedana Editorial" in soup.get_text(" ")

    found = result_titles(client.get("/search/", {"q": '"field note 26" thermal'}))
    assert found == ["Field note 26: Thermal throttling"]


def test_running_again_adds_only_the_missing_posts(demo_site):
    load_demo(30)
    generated = BlogPage.objects.filter(slug__startswith="generated-")
    ids = set(generated.values_list("pk", flat=True))
    load_demo(30)
    assert set(generated.values_list("pk", flat=True)) == ids
    load_demo(35)
    assert generated.count() == 35
    assert set(generated.values_list("pk", flat=True)) > ids
    assert Page.find_problems() == ([], [], [], [], [])
    assert (
        BlogPage.objects.get(slug="generated-35").path
        > BlogPage.objects.get(slug="generated-30").path
    )
