from django.utils import timezone
from wagtail.admin.forms import WagtailAdminPageForm


class ScheduledPageForm(WagtailAdminPageForm):
    """A post's edit form that opens without go-live or expiry times that have already passed.

    The form starts from the latest revision, which still carries the schedule the scheduler
    has carried out; posted back, a past expiry fails validation and blocks every save
    (wagtail #13896). A past go-live time means "now", so dropping it changes nothing.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        now = timezone.now()
        for name in ("go_live_at", "expire_at"):
            value = self.initial.get(name)
            if value and value <= now:
                self.initial[name] = None
