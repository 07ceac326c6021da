"""Which database a query goes to when a read replica is configured. The end-to-end proof, with
two PostgreSQL databases behind a real server, is in tests/scale/test_cluster.py."""

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.test import RequestFactory

from blog.models import BlogPage
from config.db_router import ReaderReplicaMiddleware, ReplicaRouter, reader_reads

router = ReplicaRouter()


def request(method="get", path="/blog/", user=None):
    made = getattr(RequestFactory(), method)(path)
    made.user = user or AnonymousUser()
    return made


def where_reads_go(incoming):
    seen = []

    def view(req):
        seen.append(router.db_for_read(BlogPage))
        return "response"

    assert ReaderReplicaMiddleware(view)(incoming) == "response"
    return seen[0]


def test_an_anonymous_reader_reads_from_the_replica():
    assert where_reads_go(request()) == "replica"


def test_a_signed_in_editor_reads_from_the_primary():
    assert where_reads_go(request(user=User(username="ed"))) == "default"


@pytest.mark.parametrize("path", ["/admin/", "/admin/login/", "/admin/pages/3/edit/"])
def test_the_admin_reads_from_the_primary_even_before_sign_in(path):
    assert where_reads_go(request(path=path)) == "default"


def test_a_form_post_reads_from_the_primary():
    assert where_reads_go(request("post")) == "default"


def test_the_replica_is_only_used_during_the_request():
    where_reads_go(request())
    assert router.db_for_read(BlogPage) == "default"


def test_writes_always_go_to_the_primary():
    with reader_reads():
        assert router.db_for_write(BlogPage) == "default"


@pytest.mark.django_db
def test_reads_inside_a_transaction_stay_on_the_primary():
    with reader_reads(), transaction.atomic():
        assert router.db_for_read(BlogPage) == "default"


def test_migrations_never_run_on_the_replica():
    assert router.allow_migrate("default", "blog") is True
    assert router.allow_migrate("replica", "blog") is False
    assert router.allow_relation(User(), User()) is True
