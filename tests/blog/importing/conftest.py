import io
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from .exports import draw

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def media(tmp_path):
    """The old blogs' uploads, as an operator would copy them next to the export."""
    folder = tmp_path / "media"
    draw(folder / "wp-content" / "uploads" / "2020" / "01" / "rack.png")
    draw(folder / "content" / "images" / "2023" / "01" / "rack.png")
    return folder


@pytest.fixture
def markdown_folder(tmp_path):
    folder = tmp_path / "site"
    shutil.copytree(FIXTURES / "markdown", folder)
    draw(folder / "images" / "cover.png")
    return folder


@pytest.fixture
def run_import(blog):
    """`manage.py import_posts …`, returning what it printed."""

    def run(source, *args):
        out = io.StringIO()
        call_command("import_posts", str(source), *args, stdout=out, stderr=io.StringIO())
        return out.getvalue()

    return run
