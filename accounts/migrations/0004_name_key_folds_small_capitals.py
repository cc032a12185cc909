"""Every user's name key again: the key now folds small capitals (accounts/names.py), so ``ᴅemo``
meets an existing ``demo``."""
from django.db import migrations

from accounts.names import name_key


def rekey(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    batch = []
    for user in User.objects.only("pk", "username", "name_key").iterator(chunk_size=2000):
        key = name_key(user.username)
        if key != user.name_key:
            user.name_key = key
            batch.append(user)
        if len(batch) == 2000:
            User.objects.bulk_update(batch, ["name_key"])
            batch = []
    User.objects.bulk_update(batch, ["name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_user_name_key"),
    ]

    operations = [
        migrations.RunPython(rekey, migrations.RunPython.noop),
    ]
