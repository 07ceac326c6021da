"""Admin panels of the post editor."""

from django.utils import timezone
from django.utils.functional import lazy
from modelcluster.forms import BaseChildFormSet
from wagtail.admin.panels import CommentPanel, FieldPanel, MultiFieldPanel, MultipleChooserPanel
from wagtail.admin.widgets import AdminDateTimeInput


class OpensWithChosenRowsFormSet(BaseChildFormSet):
    """A formset that opens with the rows the post already has and no blank one for min_num.

    Django pre-creates min_num blank rows, and the chooser panel's "Add" button puts what the
    editor picks in new rows beside them: the untouched blank row then failed validation with
    an error the editor did not cause. min_num still validates what is sent.
    """

    def total_form_count(self):
        if self.is_bound:
            return super().total_form_count()
        return self.initial_form_count() + self.extra


class AtLeastOneChosenPanel(MultipleChooserPanel):
    """A MultipleChooserPanel for links a published post needs at least one of.

    Drafts may wait (Wagtail lifts min_num while it defers required fields); publishing
    without one says in the panel what to choose.
    """

    def __init__(self, relation_name, *, missing_message, **kwargs):
        kwargs.setdefault("min_num", 1)
        super().__init__(relation_name, **kwargs)
        self.missing_message = missing_message

    def clone_kwargs(self):
        return {**super().clone_kwargs(), "missing_message": self.missing_message}

    def get_form_options(self):
        options = super().get_form_options()
        formset = type(
            "OpensWithChosenRowsFormSet",
            (OpensWithChosenRowsFormSet,),
            {"default_error_messages": {"too_few_forms": self.missing_message}},
        )
        options["formsets"][self.relation_name]["formset"] = formset
        return options


class MinuteDateTimeInput(AdminDateTimeInput):
    """Wagtail's date and time picker, offering every 5 minutes where it lists whole hours.

    `step` is the picker's own option (jquery.datetimepicker, default 60); Wagtail passes
    get_config() to it unchanged. Any minute can still be typed: the field keeps
    WAGTAIL_DATETIME_FORMAT ("2027-03-12 09:32").
    """

    def get_config(self):
        now = timezone.localtime()  # the editor's admin time zone, as the field's values
        # The next step from now, where the time list opens; weeks start on Monday, as in
        # the Calendar.
        minutes = (now.hour * 60 + now.minute) // 5 * 5 + 5
        return {
            **super().get_config(),
            "step": 5,
            "dayOfWeekStart": 1,
            "defaultTime": f"{minutes // 60 % 24:02d}:{minutes % 60:02d}",
        }

    def get_context(self, name, value, attrs):
        # static/js/publish-label.js compares a typed go-live with now on the editor's clock.
        attrs = {**(attrs or {}), "data-editor-zone": timezone.get_current_timezone_name()}
        return super().get_context(name, value, attrs)


def _times_are_in_your_zone():
    return (
        f"Times are in {timezone.get_current_timezone_name()}, your time zone "
        "(change it under Account → Preferences)."
    )


# Worked out as the form is shown: the admin switches to each editor's own zone per request.
TIMES_ARE_IN_YOUR_ZONE = lazy(_times_are_in_your_zone, str)()


def schedule_panels():
    """The Publishing tab: go-live and expiry as plain fields, saved with Save draft or Publish.

    Wagtail keeps them in a "Set schedule" dialog behind the status side panel, which saves
    and reloads the whole editor; ScheduledPageForm hides that dialog's button.
    """
    return [
        MultiFieldPanel(
            [
                FieldPanel(
                    "go_live_at",
                    heading="Go live at",
                    widget=MinuteDateTimeInput(),
                    help_text="When readers first see the post (or these changes, if it is "
                    "already live). Leave empty to publish as soon as it is approved or "
                    "published.",
                ),
                FieldPanel(
                    "expire_at",
                    heading="Expire at",
                    widget=MinuteDateTimeInput(),
                    help_text="When the post is taken down again: readers no longer find it, "
                    "and you can publish it again later. Leave empty to keep it up.",
                ),
            ],
            heading="Schedule",
            help_text=TIMES_ARE_IN_YOUR_ZONE,
        ),
        # Wagtail's comments need their (invisible) panel in the form; it came with
        # Page.settings_panels, which this tab replaces.
        CommentPanel(),
    ]
