from django.contrib.auth.forms import UserCreationForm
from django import forms
from django.utils.translation import gettext_lazy as _

from .models import User


class RegisterForm(UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), required=False,
                             help_text=_("Needed only to reset a forgotten password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self):
        name = super().clean_username()
        if name.lower().startswith(("bot-", "guest-")):
            raise forms.ValidationError(_("This name is reserved."))
        return name
