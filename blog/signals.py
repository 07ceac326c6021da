from django.apps import apps
from django.db.models.signals import post_save
from django.dispatch import receiver

from .editorial.roles import attach_roles_to_blog
from .models import BlogIndexPage


@receiver(post_save, sender=BlogIndexPage, dispatch_uid="blog_index_editorial_roles")
def give_a_new_blog_its_editorial_roles(sender, instance, created, raw=False, **kwargs):
    # A fresh database has no blog when the roles migration runs; the blog that `load_demo`
    # or an administrator creates later gets the same permissions and review workflow.
    if created and not raw:
        attach_roles_to_blog(apps, instance.pk)
