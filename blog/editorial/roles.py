"""The editorial roles: Editors write and submit posts, Publishers review, publish and schedule.

The functions take an app registry so the data migration (historical models) and the runtime
signal (a blog index created later, e.g. by `load_demo`) share one definition.
"""

EDITORS = "Editors"
PUBLISHERS = "Publishers"
REVIEW_WORKFLOW = "Editorial review"
REVIEW_TASK = "Publisher review"

# Page permissions granted on the blog index, so they cover every post in it.
PAGE_PERMISSIONS = {
    EDITORS: ["add_page", "change_page"],
    PUBLISHERS: ["add_page", "change_page", "publish_page", "lock_page", "unlock_page"],
}
# (app label, model, codename) for model-wide permissions.
MODEL_PERMISSIONS = {
    EDITORS: [
        ("wagtailadmin", "admin", "access_admin"),
        # A topic while writing, from the post's chooser (blog/snippets.py); a new topic reaches
        # readers only with a post a Publisher publishes. Renaming or removing one is theirs.
        ("blog", "topic", "add_topic"),
        ("blog", "topic", "view_topic"),
        ("blog", "author", "view_author"),
    ],
    PUBLISHERS: [
        ("wagtailadmin", "admin", "access_admin"),
        ("blog", "topic", "add_topic"),
        ("blog", "topic", "change_topic"),
        ("blog", "topic", "view_topic"),
        ("blog", "author", "add_author"),
        ("blog", "author", "change_author"),
        ("blog", "author", "view_author"),
        ("home", "sitesettings", "change_sitesettings"),
    ],
}
# Rights in the image and document libraries, on the root collection (so every collection).
# Editors upload and choose anything, and (Wagtail's ownership rule for "add") edit or delete
# only what they uploaded themselves: a live post's hero changes only through a Publisher.
# Publishers manage the whole library.
COLLECTION_PERMISSIONS = {
    EDITORS: {
        ("wagtailimages", "image"): ["add_image", "choose_image"],
        ("wagtaildocs", "document"): ["add_document", "choose_document"],
    },
    PUBLISHERS: {
        ("wagtailimages", "image"): [
            "add_image",
            "change_image",
            "delete_image",
            "choose_image",
        ],
        ("wagtaildocs", "document"): [
            "add_document",
            "change_document",
            "delete_document",
            "choose_document",
        ],
    },
}


def get_permission(apps, app_label, model, codename):
    # Model permissions are only created after every migration has run; create them as
    # Wagtail's own data migrations do, with Django's default name.
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
    action = codename.split("_", 1)[0]
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type,
        codename=codename,
        defaults={"name": f"Can {action} {model}"},
    )
    return permission


def ensure_roles(apps):
    """Create the groups and the review workflow if missing; returns (groups, workflow)."""
    Group = apps.get_model("auth", "Group")
    Collection = apps.get_model("wagtailcore", "Collection")
    GroupCollectionPermission = apps.get_model("wagtailcore", "GroupCollectionPermission")
    GroupPagePermission = apps.get_model("wagtailcore", "GroupPagePermission")

    groups = {name: Group.objects.get_or_create(name=name)[0] for name in (EDITORS, PUBLISHERS)}
    # Wagtail's default Editors group may edit every page; ours write blog posts only.
    GroupPagePermission.objects.filter(group=groups[EDITORS], page__depth=1).delete()

    root_collection = Collection.objects.filter(depth=1).first()
    for name, group in groups.items():
        group.permissions.add(*(get_permission(apps, *spec) for spec in MODEL_PERMISSIONS[name]))
        if root_collection is None:
            continue
        for (app_label, model), codenames in COLLECTION_PERMISSIONS[name].items():
            granted = [get_permission(apps, app_label, model, codename) for codename in codenames]
            # Wagtail gives its default Editors group change and delete on the whole library.
            GroupCollectionPermission.objects.filter(
                group=group,
                collection=root_collection,
                permission__content_type__app_label=app_label,
                permission__content_type__model=model,
            ).exclude(permission__in=granted).delete()
            for permission in granted:
                GroupCollectionPermission.objects.get_or_create(
                    group=group, collection=root_collection, permission=permission
                )
    return groups, ensure_review_workflow(apps, groups[PUBLISHERS])


def ensure_review_workflow(apps, publishers):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Workflow = apps.get_model("wagtailcore", "Workflow")
    WorkflowTask = apps.get_model("wagtailcore", "WorkflowTask")
    GroupApprovalTask = apps.get_model("wagtailcore", "GroupApprovalTask")

    workflow, created = Workflow.objects.get_or_create(
        name=REVIEW_WORKFLOW, defaults={"active": True}
    )
    if created:
        task_type, _ = ContentType.objects.get_or_create(
            app_label="wagtailcore", model="groupapprovaltask"
        )
        task = GroupApprovalTask.objects.create(
            name=REVIEW_TASK, content_type=task_type, active=True
        )
        task.groups.add(publishers)
        WorkflowTask.objects.create(workflow=workflow, task=task, sort_order=0)
    return workflow


def attach_roles_to_blog(apps, page_id):
    """Give both roles their permissions on one blog index and route its posts through review."""
    GroupPagePermission = apps.get_model("wagtailcore", "GroupPagePermission")
    WorkflowPage = apps.get_model("wagtailcore", "WorkflowPage")

    groups, workflow = ensure_roles(apps)
    for name, codenames in PAGE_PERMISSIONS.items():
        for codename in codenames:
            permission = get_permission(apps, "wagtailcore", "page", codename)
            GroupPagePermission.objects.get_or_create(
                group=groups[name], page_id=page_id, permission=permission
            )
    WorkflowPage.objects.get_or_create(page_id=page_id, defaults={"workflow": workflow})
