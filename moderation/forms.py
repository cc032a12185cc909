from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Report
from .services import REPORT_TEXT_MAX


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("Reason"), choices=Report.Reason.choices)
    text = forms.CharField(label=_("What happened (optional)"), required=False, max_length=REPORT_TEXT_MAX,
                           widget=forms.Textarea(attrs={"rows": 3}))
