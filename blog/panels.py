"""Admin panels of the post editor."""

from modelcluster.forms import BaseChildFormSet
from wagtail.admin.panels import MultipleChooserPanel


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
