# The format's choices come from tournaments/formats/ (the admin's form offers them), no longer from
# the model; an arena counts no rounds, so a running or finished one's current_round goes back to 0.
# Neither changes a column.

from django.db import migrations, models


def arenas_count_no_rounds(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(format="arena").update(current_round=0)


def arenas_had_one_round(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(format="arena", round_set__isnull=False).update(current_round=1)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_duplicate'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournament',
            name='format',
            field=models.CharField(default='swiss', max_length=16, verbose_name='format'),
        ),
        migrations.RunPython(arenas_count_no_rounds, arenas_had_one_round),
    ]
