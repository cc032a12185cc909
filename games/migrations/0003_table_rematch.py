from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_table_spectators'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='rematch',
            field=models.JSONField(blank=True, null=True),
        ),
    ]
