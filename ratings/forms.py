from django import forms
from django.utils.translation import gettext_lazy as _

MAX_UPLOAD = 2 * 1024 * 1024


class UploadForm(forms.Form):
    file = forms.FileField(label=_("Record file (.json or .jsonl)"), required=False)
    text = forms.CharField(label=_("…or paste it here"), required=False,
                           widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}))

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_UPLOAD:
                raise forms.ValidationError(_("The file is too large (at most 2 MB)."))
            raw = upload.read()
            try:
                data["payload"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        else:
            data["payload"] = data.get("text") or ""
        if not data["payload"].strip():
            raise forms.ValidationError(_("Choose a file or paste a deal record."))
        return data
