"""Running an import again: nothing duplicated, only changes applied, editors' work kept."""

from blog.importing.models import ImportedItem
from blog.models import BlogPage

from .conftest import FIXTURES

WXR = FIXTURES / "wordpress.xml"


def test_a_second_run_changes_nothing(run_import, media):
    run_import(WXR, "--media", str(media))
    revisions = {p.pk: p.latest_revision_id for p in BlogPage.objects.all()}
    report = run_import(WXR, "--media", str(media))
    assert "  unchanged       7" in report
    assert "  created         0" in report
    assert {p.pk: p.latest_revision_id for p in BlogPage.objects.all()} == revisions
    assert ImportedItem.objects.filter(key__startswith="picture:").count() == 1


def test_a_partial_re_export_updates_only_the_changed_post(run_import, media, tmp_path):
    run_import(WXR, "--media", str(media))
    untouched = BlogPage.objects.get(slug="team-only").latest_revision_id
    edited = tmp_path / "edited.xml"
    edited.write_text(WXR.read_text().replace("Last words.", "Last words, revised."))
    report = run_import(edited, "--media", str(media))
    assert "  updated         1" in report
    assert "  unchanged       6" in report
    hello = BlogPage.objects.get(slug="hello-world")
    assert hello.live and "Last words, revised." in str(hello.body)
    assert BlogPage.objects.get(slug="team-only").latest_revision_id == untouched
    assert BlogPage.objects.filter(title="Hello, world & friends").count() == 1


def test_a_post_an_editor_changed_is_not_overwritten(run_import, media, tmp_path):
    run_import(WXR, "--media", str(media))
    hello = BlogPage.objects.get(slug="hello-world")
    hello.summary = "The editor's own summary."
    hello.save_revision().publish()
    edited = tmp_path / "edited.xml"
    edited.write_text(WXR.read_text().replace("Last words.", "Last words, revised."))
    report = run_import(edited, "--media", str(media))
    assert "an editor changed the post since it was imported" in report
    hello.refresh_from_db()
    assert hello.summary == "The editor's own summary."
    assert "revised" not in str(hello.body)


def test_posts_are_indexed_in_one_batch_after_the_import(run_import, media, monkeypatch):
    from modelsearch import signal_handlers

    indexed_one_by_one = []
    real = signal_handlers.insert_or_update_object_task

    class Recording:
        @staticmethod
        def enqueue(app_label, model_name, pk):
            indexed_one_by_one.append(model_name)
            return real.enqueue(app_label, model_name, pk)

    monkeypatch.setattr(signal_handlers, "insert_or_update_object_task", Recording)
    run_import(WXR, "--media", str(media))
    assert "blogpage" not in indexed_one_by_one
    # Saving a post afterwards indexes it as before: the pause ended with the import.
    BlogPage.objects.get(slug="hello-world").save()
    assert "blogpage" in indexed_one_by_one


def test_wagtail_knows_where_imported_pictures_and_topics_are_used(run_import, media):
    from wagtail.models import ReferenceIndex

    run_import(WXR, "--media", str(media))
    hello = BlogPage.objects.get(slug="hello-world")
    assert ReferenceIndex.get_references_to(hello.hero_image).exists()
    assert ReferenceIndex.get_references_to(hello.topics[0]).exists()
