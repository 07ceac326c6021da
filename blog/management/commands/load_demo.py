"""Build the demo site: the home page, the blog from the reference page, and optional
synthetic posts for benchmarks. Running it again leaves existing content as it is."""

import io
import os
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.images import ImageFile
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from wagtail.embeds.embeds import get_embed_hash
from wagtail.embeds.models import Embed
from wagtail.images.models import Image
from wagtail.models import Page, Site

from blog.demo.bodies import body_for
from blog.demo.drawings import draw, draw_generated
from blog.demo.generate import generate_posts
from blog.demo.posts import POSTS
from blog.models import Author, BlogIndexPage, BlogPage, BlogPageAuthor, BlogPageTopic, Topic
from blog.renditions import prepare_every_picture
from home.models import HomePage, SiteSettings

DEMO_EMBED_URL = "https://vimeo.com/76979871"
GENERATED_IMAGE_POOL = 24

SITE_SETTINGS = {
    "brand_name": "cedana",
    "login_label": "Login",
    "login_url": "/admin/",
    "cta_label": "Schedule demo",
    "cta_url": "https://cedana.example/schedule-demo",
    "footer_text": "Field reports and engineering deep-dives from the team building the "
    "automation layer for AI factories.",
}

BLOG_INDEX = {
    "title": "Blog",
    "slug": "blog",
    "title_line": "blog · field reports & engineering deep-dives",
    "hero_heading": "Writing from the\ncedana team.",
    "hero_intro": "Engineering notes, benchmarks, and field reports covering how we build the "
    "automation layer for AI factories.",
    "section_heading": "insights from the team.",
    "section_intro": "Field reports, engineering deep-dives, and benchmarks from the Cedana team.",
    "posts_per_page": 12,
}

TOPICS = [
    (
        "gpu-reliability",
        "GPU reliability",
        "What happens when GPUs fail, and how work survives it.",
    ),
    ("engineering", "Engineering", "How we build the automation layer for AI factories."),
    ("benchmarks", "Benchmarks", "Measurements of restore, checkpoint and serving performance."),
    ("field-reports", "Field reports", "Notes from running GPU fleets in production."),
]

AUTHOR = {
    "slug": "cedana-editorial",
    "name": "Cedana Editorial",
    "role": "Editorial team",
    "bio": "The Cedana team writes about GPU reliability, checkpoint and restore, and running "
    "AI workloads that survive failure.",
}


class Command(BaseCommand):
    help = (
        "Build the demo site (home page, blog index, topics, author and the 13 reference posts). "
        "Idempotent: a second run changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--posts",
            type=int,
            default=0,
            help="Make sure N synthetic posts exist besides the reference ones (for benchmarks).",
        )
        parser.add_argument(
            "--address",
            metavar="HOST:PORT",
            help="The address the demo is served at (e.g. 127.0.0.1:8000). Canonical links, "
            "feeds, share pictures, the sitemap and notification e-mails name the site's "
            "address, whatever Host a reader sends. Without it, the address in the "
            "WAGTAILADMIN_BASE_URL environment variable; else Wagtail's default, localhost:80.",
        )
        parser.add_argument(
            "--prepare-pictures",
            action="store_true",
            help="Make every picture size the reference posts' pages, previews and editor show "
            "now, so the first reader or editor waits for none (about a second a picture).",
        )
        parser.add_argument(
            "--no-admin",
            action="store_true",
            help="Do not create the demo 'admin' superuser.",
        )

    def handle(
        self, *args, posts=0, no_admin=False, address=None, prepare_pictures=False, **options
    ):
        with transaction.atomic():
            user = None if no_admin else self.ensure_admin()
            home = self.ensure_home()
            # One address for the e-mails' admin links and the Site's links to posts.
            address = address or address_of(os.environ.get("WAGTAILADMIN_BASE_URL"))
            if address:
                self.set_site_address(address)
            self.ensure_site_settings(home)
            author = self.ensure_author(user)
            index = self.ensure_blog_index(home, author)
            topics = self.ensure_topics()
            self.ensure_embed_cache()
            created = sum(
                self.ensure_post(index, spec, topics, author, age) for age, spec in enumerate(POSTS)
            )
        self.stdout.write(
            f"Reference posts: {created} created, {len(POSTS) - created} already there."
        )
        if posts:
            made = self.ensure_generated_posts(index, posts, list(topics.values()), author)
            self.stdout.write(f"Synthetic posts: {made} created, {posts - made} already there.")
        if prepare_pictures:
            reference = BlogPage.objects.child_of(index).filter(slug__in=[p["slug"] for p in POSTS])
            prepared = prepare_every_picture(reference.select_related("hero_image"))
            self.stdout.write(f"Pictures: prepared every size of {prepared} images.")

    def ensure_admin(self):
        user_model = get_user_model()
        user = user_model.objects.filter(username="admin").first()
        if user is None:
            password = os.environ.get("DEMO_ADMIN_PASSWORD", "admin")
            user = user_model.objects.create_superuser("admin", "admin@example.com", password)
            self.stdout.write(
                "Created the demo superuser 'admin' (password from DEMO_ADMIN_PASSWORD, default 'admin')."
            )
        return user

    def ensure_home(self):
        site = Site.objects.filter(is_default_site=True).first()
        home = HomePage.objects.first()
        if home is None:
            root = Page.get_first_root_node()
            # Wagtail's install leaves a plain "Welcome" page; the demo home takes its place.
            for placeholder in root.get_children().filter(content_type__model="page"):
                if placeholder.numchild == 0:
                    placeholder.delete()
            home = root.add_child(
                instance=HomePage(
                    title="Home",
                    slug="home",
                    heading="Field reports & engineering deep-dives",
                    intro="Writing from the cedana team on GPU reliability, checkpoint and "
                    "restore, and inference that survives failure.",
                )
            )
            home.save_revision().publish()
        if site is None:
            site = Site(hostname="localhost", port=80, is_default_site=True)
        if site.root_page_id != home.pk or not site.site_name:
            site.root_page = home
            # The admin's dashboard greets editors with the site's name, else its host name.
            site.site_name = site.site_name or settings.WAGTAIL_SITE_NAME
            site.save()
        return home

    def set_site_address(self, address):
        hostname, _, port = address.rpartition(":")
        if not hostname or not port.isdigit():
            raise CommandError(f"--address takes HOST:PORT, e.g. 127.0.0.1:8000, not {address!r}.")
        Site.objects.filter(is_default_site=True).update(hostname=hostname, port=int(port))

    def ensure_site_settings(self, home):
        site = Site.objects.get(is_default_site=True)
        SiteSettings.objects.get_or_create(site=site, defaults=SITE_SETTINGS)

    def ensure_blog_index(self, home, author):
        index = BlogIndexPage.objects.child_of(home).filter(slug=BLOG_INDEX["slug"]).first()
        if index is None:
            index = home.add_child(
                instance=BlogIndexPage(search_description=BLOG_INDEX["hero_intro"], **BLOG_INDEX)
            )
        if index.default_author_id is None:
            # The demo's byline for posts that arrive without one (imports).
            index.default_author = author
            index.save_revision().publish()
        return index

    def ensure_topics(self):
        return {
            slug: Topic.objects.get_or_create(
                slug=slug, defaults={"name": name, "description": description}
            )[0]
            for slug, name, description in TOPICS
        }

    def ensure_author(self, user):
        author, _ = Author.objects.get_or_create(
            slug=AUTHOR["slug"], defaults={k: v for k, v in AUTHOR.items() if k != "slug"}
        )
        if user is not None and author.user_id is None and not hasattr(user, "author_profile"):
            author.user = user
            author.save(update_fields=["user"])
        return author

    def ensure_embed_cache(self):
        # The demo works offline: Wagtail's embed cache already holds the one video it shows.
        Embed.objects.get_or_create(
            hash=get_embed_hash(DEMO_EMBED_URL),
            defaults={
                "url": DEMO_EMBED_URL,
                "type": "video",
                "title": "Demo video",
                "provider_name": "Vimeo",
                "width": 640,
                "height": 360,
                "html": '<iframe src="https://player.vimeo.com/video/76979871" width="640" '
                'height="360" title="Demo video" loading="lazy" allow="fullscreen" '
                "allowfullscreen></iframe>",
            },
        )

    def demo_image(self, title, picture):
        image = Image.objects.filter(title=title).first()
        if image is None:
            buffer = io.BytesIO()
            picture.save(buffer, format="PNG", optimize=True)
            filename = title.split(": ", 1)[-1] + ".png"
            image = Image(title=title, file=ImageFile(buffer, name=filename))
            image.save()
        return image

    def ensure_post(self, index, spec, topics, author, age):
        if BlogPage.objects.child_of(index).filter(slug=spec["slug"]).exists():
            return False
        image = self.demo_image(f"demo: {spec['slug']}", draw(spec["slug"]))
        post = BlogPage(
            title=spec["title"],
            slug=spec["slug"],
            summary=spec["summary"],
            hero_image=image,
            hero_alt=spec["alt"],
            featured=spec["featured"],
            search_description=spec["summary"],
            body=body_for(spec["slug"], spec["title"], spec["summary"], image.pk),
        )
        post.author_links = [BlogPageAuthor(author=author)]
        post.topic_links = [BlogPageTopic(topic=topics[slug]) for slug in spec["topics"]]
        index.add_child(instance=post)
        post.save_revision().publish()

        # Back-date publication so the blog reads like one that has been running for a while.
        now = timezone.now()
        first = now - timedelta(days=spec["days_ago"], hours=age)
        updated = spec.get("updated_days_ago")
        last = now - timedelta(days=updated) if updated is not None else first
        BlogPage.objects.filter(pk=post.pk).update(
            first_published_at=first, last_published_at=last, latest_revision_created_at=last
        )
        return True

    def ensure_generated_posts(self, index, count, topics, author):
        images = [
            self.demo_image(f"demo: generated-{n}", draw_generated(n, 960, 540))
            for n in range(GENERATED_IMAGE_POOL)
        ]
        generated = generate_posts(index, count, images=images, topics=topics, author=author)
        if generated.created:
            self.stdout.write(
                f"Wrote {generated.created} posts in {generated.write_seconds:.1f} s, "
                f"indexed them in {generated.index_seconds:.1f} s."
            )
        return generated.created


def address_of(url):
    """'blog.example.com:443' for https://blog.example.com, None for no address."""
    parts = urlsplit(url or "")
    if not parts.hostname:
        return None
    return f"{parts.hostname}:{parts.port or (443 if parts.scheme == 'https' else 80)}"
