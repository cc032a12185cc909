"""A profile lists a player's open tables only where the visitor could follow the link: no private
table and no duplicate round's table, unless the visitor owns it or plays there (lobby/views.py)."""
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import fair_deals, services

pytestmark = pytest.mark.django_db


def listed(client, name) -> set[int]:
    page = client.get(reverse("profile", args=[name])).content.decode()
    return {int(n) for n in re.findall(r'href="/table/(\d+)/"', page)}


def test_a_profile_hides_private_and_duplicate_tables_from_those_who_may_not_watch_them(make_user, task_queue):
    ala, ola, eve = make_user("ala"), make_user("ola"), make_user("eve")
    public = services.create_table(ala, "sixtysix")
    private = services.create_table(ola, "sixtysix", private=True, seats=["me", ala], start=False)
    duplicate = services.create_table(ola, "sixtysix", seats=[ala, eve],
                                      duplicate=fair_deals.duplicate_source("round:1-1", bytes(32), [0, 1]))
    anonymous = Client()
    assert listed(anonymous, "ala") == {public.pk}
    strangers = Client()
    strangers.force_login(make_user("zed"))
    assert listed(strangers, "ala") == {public.pk}
    owner, opponent, herself = Client(), Client(), Client()
    owner.force_login(ola)
    opponent.force_login(eve)
    herself.force_login(ala)
    assert listed(owner, "ala") == {public.pk, private.pk, duplicate.pk}
    assert listed(opponent, "ala") == {public.pk, duplicate.pk}
    assert listed(herself, "ala") == {public.pk, private.pk, duplicate.pk}
