from django import forms
from django.conf import settings
from django.utils.translation import gettext, gettext_lazy as _


def too_large() -> str:
    """The refusal of records over RECORD_UPLOAD_BYTES."""
    return gettext("The records are too large: at most %(kib)d KB at a time.") % {
        "kib": settings.RECORD_UPLOAD_BYTES // 1024}


class UploadForm(forms.Form):
    file = forms.FileField(label=_("Record file (.json or .jsonl)"), required=False)
    text = forms.CharField(label=_("…or paste it here"), required=False,
                           widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}))

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > settings.RECORD_UPLOAD_BYTES:
                raise forms.ValidationError(too_large())
            raw = upload.read()
            try:
                data["payload"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        else:
            data["payload"] = data.get("text") or ""
            if len(data["payload"].encode()) > settings.RECORD_UPLOAD_BYTES:
                raise forms.ValidationError(too_large())
        if not data["payload"].strip():
            raise forms.ValidationError(_("Choose a file or paste a deal record."))
        return data
