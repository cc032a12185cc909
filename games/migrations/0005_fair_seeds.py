# Provably fair deals (docs/FAIRNESS.md): the next deal's committed seeds, and each deal's secret
# server seed (revealed in its record only once the deal may be shown).
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0004_match_abandoned_seat_away_since'),
    ]

    operations = [
        migrations.AddField(
            model_name='deal',
            name='server_seed',
            field=models.CharField(blank=True, db_default='', default='', max_length=64),
        ),
        migrations.AddField(
            model_name='table',
            name='fair_pending',
            field=models.JSONField(blank=True, null=True),
        ),
    ]
