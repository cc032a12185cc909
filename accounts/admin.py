from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .login import AdminLoginForm
from .models import User

# The admin's login takes a name in any case, as the site's does (accounts/login.py).
admin.site.login_form = AdminLoginForm


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "email", "is_guest", "is_bot", "bot_level", "is_bot_account", "is_staff", "date_joined")
    list_filter = ("is_guest", "is_bot", "is_bot_account", "is_staff")
    fieldsets = UserAdmin.fieldsets + (("Platform", {"fields": ("is_guest", "is_bot", "bot_level", "is_bot_account")}),)
