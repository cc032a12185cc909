from django.db import migrations, models

from accounts.names import name_key


def backfill(apps, schema_editor):
    """Every existing user's key, so a new name is compared with all of them."""
    User = apps.get_model("accounts", "User")
    batch = []
    for user in User.objects.only("pk", "username").iterator(chunk_size=2000):
        user.name_key = name_key(user.username)
        batch.append(user)
        if len(batch) == 2000:
            User.objects.bulk_update(batch, ["name_key"])
            batch = []
    User.objects.bulk_update(batch, ["name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_user_is_bot_account_apitoken"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_key",
            field=models.TextField(db_default="", db_index=True, default="", editable=False),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
