# A duplicate tournament's table: the round's deal source (games/fair_deals.py).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_table_bots_allowed'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='duplicate',
            field=models.JSONField(blank=True, null=True),
        ),
    ]
