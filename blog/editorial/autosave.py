"""Autosave and the editor's own saves, without a second post or an identical version.

Wagtail's autosave (wagtail #13863, "Autosave UX refinements", lists the races) posts the add
form in the background; its first success turns the form into the post's edit form. A Save
draft clicked while that request was on its way posted the add form again, and the second
request failed with "address taken". static/js/autosave-guard.js holds such a click until the
autosave is answered; here the server treats a second post of the same add form as an edit of
the post it already made, whatever the order. Each add form carries a key for that
(BlogPageForm.CREATE_KEY), kept in the editor's session once the post exists.
"""

import json

from django.http import JsonResponse
from django.templatetags.static import static
from django.urls import resolve, reverse
from django.utils.html import format_html
from wagtail import hooks
from wagtail.admin.utils import set_query_params

from ..forms import CREATE_KEY
from ..models import BlogPage

# The posts the editor's last add forms made, by the form's key, in their session.
ADD_FORMS_SESSION_KEY = "blog:posts-made-by-add-forms"
ADD_FORMS_KEPT = 20
# The form field static/js/autosave-guard.js names the version this window's autosave wrote in.
AUTOSAVED_VERSION = "autosaved_revision_id"
# The field it adds when Save draft saves without reloading the editor.
SAVE_IN_PLACE = "save_in_place"


def saved_in_place(request):
    """Save draft, sent by static/js/autosave-guard.js with the form and answered with
    Wagtail's JSON, as an autosave is: the editor stays open."""
    return request.method == "POST" and request.POST.get(SAVE_IN_PLACE) == "1"


def add_form_key(request):
    return request.POST.get(CREATE_KEY, "")[:64]


@hooks.register("after_create_page")
def remember_the_post_this_add_form_made(request, page):
    if isinstance(page, BlogPage) and (key := add_form_key(request)):
        made = {**request.session.get(ADD_FORMS_SESSION_KEY, {}), key: page.pk}
        request.session[ADD_FORMS_SESSION_KEY] = dict(list(made.items())[-ADD_FORMS_KEPT:])


@hooks.register("before_create_page")
def save_a_second_post_of_the_add_form_as_an_edit(request, parent_page, page_class):
    if request.method != "POST" or not issubclass(page_class, BlogPage):
        return None
    key = add_form_key(request)
    post_id = key and request.session.get(ADD_FORMS_SESSION_KEY, {}).get(key)
    post = post_id and BlogPage.objects.child_of(parent_page).filter(pk=post_id).first()
    if not post:
        return None
    # Whichever view Wagtail serves the post's edit form with answers this post of the form.
    edit_url = reverse("wagtailadmin_pages:edit", args=[post.pk])
    edit = resolve(edit_url)
    response = edit.func(request, *edit.args, **edit.kwargs)
    if not isinstance(response, JsonResponse):
        return response
    # The autosave that posted this still holds the add form: point it at the edit form, as
    # Wagtail's answer to a first autosave does.
    data = json.loads(response.content)
    if data.get("success"):
        data["url"] = edit_url
        data["hydrate_url"] = set_query_params(edit_url, {"_w_hydrate_create_view": "1"})
    return JsonResponse(data, status=response.status_code)


@hooks.register("before_edit_page")
def tell_the_post_how_it_is_saved(request, page):
    # Save draft, Publish and the rest end the editing session's version (Save draft without
    # reloading the editor too); an autosave's reply is kept by the page to overwrite next, so
    # blog/revisions.py reuses an identical version only for these.
    if request.method == "POST" and (request.accepts("text/html") or saved_in_place(request)):
        page.saved_from_the_full_editor = True
        # The version this window's autosave wrote, sent by static/js/autosave-guard.js: the
        # save is written into it (blog/revisions.py, autosaved_version_to_finish).
        page.autosaved_revision_id = request.POST.get(AUTOSAVED_VERSION, "")[:20]


@hooks.register("insert_editor_js")
def autosave_guard_js():
    return format_html('<script src="{}"></script>', static("js/autosave-guard.js"))
