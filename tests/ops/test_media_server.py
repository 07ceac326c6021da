"""One machine, production's way of serving media: nginx with config/nginx/cedana.conf in front
of the app. Pictures and renditions come from disk; a document's file never does, so a private
collection stays private (docs/deploy.md, "One machine")."""

import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.base import ContentFile
from wagtail.documents.models import Document
from wagtail.models import Collection, CollectionViewRestriction

from tests.factories import make_image
from tests.services import require

CONF = Path(__file__).resolve().parents[2] / "config" / "nginx" / "cedana.conf"
SECRET = b"%PDF-1.4 the board's secret budget"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def nginx_conf(folder, port, upstream):
    """The repository's server block with this machine's paths and ports, inside the smallest
    main configuration nginx accepts."""
    server = (
        CONF.read_text()
        .replace("/srv/cedana/media", str(Path(settings.MEDIA_ROOT)))
        .replace("listen 80;", f"listen 127.0.0.1:{port};")
        .replace("http://127.0.0.1:8000", upstream)
    )
    temp = {name: folder / name for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    return f"""
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{}}
http {{
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path {temp["client_body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    {server}
}}
"""


@pytest.fixture
def media_server(live_server, tmp_path):
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    require(nginx, "nginx (.ci/services.sh installs Debian's package)")
    port = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_conf(tmp_path, port, live_server.url))
    # Workers read the test's media folder, which only root may enter.
    server = subprocess.Popen(  # noqa: S603 (the machine's nginx, our own arguments)
        [nginx, "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off; user root;"],
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise AssertionError(
                    f"nginx did not start: {server.stderr.read().decode()}"
                ) from None
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.terminate()
    server.wait(timeout=10)


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 (loopback)
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def private_document():
    collection = root_collection().add_child(name="Board papers")
    CollectionViewRestriction.objects.create(
        collection=collection, restriction_type="password", password="hunter2"
    )
    return Document.objects.create(
        title="Budget", collection=collection, file=ContentFile(SECRET, name="budget.pdf")
    )


def root_collection():
    """The tree's root, which migrations create and a transactional test before may have
    flushed away with everything else."""
    return Collection.get_first_root_node() or Collection.add_root(name="Root")


@pytest.mark.django_db(transaction=True)
def test_pictures_come_from_disk_and_private_documents_never_do(media_server):
    root_collection()
    picture = make_image("Rack of GPUs")
    rendition = picture.get_rendition("width-100")
    status, body = fetch(media_server + rendition.url)
    assert status == 200
    assert body == Path(rendition.file.path).read_bytes()
    assert fetch(media_server + picture.file.url)[0] == 200

    document = private_document()
    assert Path(document.file.path).read_bytes() == SECRET
    status, body = fetch(media_server + document.file.url)
    assert status == 404
    assert SECRET not in body

    # Through the app, the collection's password is still asked for.
    status, body = fetch(media_server + document.url)
    assert status == 200
    assert SECRET not in body
    assert b"password" in body.lower()
