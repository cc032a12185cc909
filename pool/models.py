"""A waiting player: one row per person in a pool, in the database (not a process's memory), so
that every web process and beat pair from the same waiters and a killed process loses nothing but
its own sockets' places. Written by pool/services.py only."""
from django.conf import settings
from django.db import models


class PoolEntry(models.Model):
    # One place per person, whatever the pool: "already waiting" is this constraint.
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pool_entry")
    pool = models.CharField(max_length=64)          # pool/catalogue.py key, e.g. hearts/standard/300+5
    rating = models.IntegerField()                  # the display rating in that game and variant, at joining
    joined_at = models.DateTimeField()
    # The place is a lease held by the socket that joined (``channel``): renewed while it is open,
    # removed when it closes; a lease that runs out (its web process was killed) is not paired.
    channel = models.CharField(max_length=200)
    lease_until = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["pool", "lease_until"])]

    def __str__(self):
        return f"{self.user_id} in {self.pool}"
