from django.contrib.auth.forms import UserCreationForm
from django import forms
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from . import names
from .models import User, confusable_with_existing

# The model allows 150 characters (AbstractUser); a name is shown in seat boxes, lobby chips and
# chat, so new names are kept to what those can show. Existing longer names still work (the CSS
# truncates them), so no migration.
NAME_MAX_LENGTH = 30


class RegisterForm(UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), required=False,
                             help_text=_("Needed only to reset a forgotten password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        name = self.fields["username"]
        name.max_length = NAME_MAX_LENGTH
        name.validators.append(MaxLengthValidator(NAME_MAX_LENGTH))
        name.widget.attrs["maxlength"] = str(NAME_MAX_LENGTH)
        name.help_text = _("Up to %(n)d characters: letters, digits and @/./+/-/_ only.") % {"n": NAME_MAX_LENGTH}

    def clean_username(self):
        # UserCreationForm.clean_username records "already exists" (case-insensitively) and returns
        # None for a taken name: there is nothing more to check then.
        name = super().clean_username()
        if name and names.is_reserved(name):
            raise forms.ValidationError(_("This name is reserved."))
        if name and confusable_with_existing(name):
            raise forms.ValidationError(_("This name looks too much like a player's name that "
                                          "already exists: choose another."))
        if name and names.mixes_scripts(name):
            raise forms.ValidationError(_("Write the name's letters in one alphabet: mixed alphabets "
                                          "can make it look like someone else's."))
        return name
