"""`manage.py import_posts SOURCE`: bring a WordPress, Ghost or Markdown blog in."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from blog.importing.importer import Importer
from blog.importing.safety import ExportError
from blog.importing.sources import FORMATS, opened
from blog.models import BlogIndexPage


class Command(BaseCommand):
    help = (
        "Import posts from a WordPress export (.xml), a Ghost export (.json), a folder of "
        "Markdown files, or a zip of any of them with its pictures. Running it again updates "
        "only what changed in the export."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", help="The export file, folder or zip.")
        parser.add_argument("--format", choices=FORMATS, help="Default: guessed from the name.")
        parser.add_argument("--dry-run", action="store_true", help="Report, write nothing.")
        parser.add_argument("--media", help="A folder holding the export's pictures.")
        parser.add_argument("--blog", help="The slug of the blog to import into, if several.")
        parser.add_argument("--user", help="The admin user the posts' history names.")

    def handle(self, *args, **options):
        blog = self.target_blog(options["blog"])
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"No user “{options['user']}”.")
        try:
            with opened(options["source"], options["format"], options["media"]) as (export, media):
                bar = tqdm(
                    total=len(export.posts),
                    file=self.stderr,
                    unit="post",
                    disable=options["verbosity"] == 0,
                )
                importer = Importer(
                    blog,
                    media,
                    dry_run=options["dry_run"],
                    user=user,
                    progress=lambda done, total, outcome: bar.update(1),
                )
                report = importer.run(export)
                bar.close()
        except ExportError as error:
            raise CommandError(str(error)) from error
        self.stdout.write("\n".join(report.lines()))

    def target_blog(self, slug):
        blogs = BlogIndexPage.objects.all()
        if slug:
            blogs = blogs.filter(slug=slug)
        blogs = list(blogs[:2])
        if not blogs:
            raise CommandError(
                "No blog to import into" + (f" with the slug “{slug}”." if slug else ".")
            )
        if len(blogs) > 1:
            raise CommandError("There are several blogs: name one with --blog SLUG.")
        return blogs[0]
