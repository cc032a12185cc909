"""Look-alike names (accounts/names.py, Unicode TR39): a name confusable with an existing one, or
written in mixed scripts, is refused at registration; guests never get one; every user's key is
stored (the migration gave existing users theirs) and compared in one indexed lookup."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from accounts import names
from accounts.models import User, confusable_with_existing, guest_user

from .test_register import field_errors, register

pytestmark = pytest.mark.django_db

LOOKS_TAKEN = "This name looks too much like a player&#x27;s name that already exists: choose another."
MIXED = "Write the name&#x27;s letters in one alphabet: mixed alphabets can make it look like someone else&#x27;s."


@pytest.mark.parametrize("existing, look_alike", [
    ("alice1", "аlice1"),       # a Cyrillic а (also mixed scripts: the look-alike is named first)
    ("ape", "аре"),             # all Cyrillic: one script, but the same skeleton
    ("mary", "rnary"),          # r and n side by side
    ("lan", "Ian"),             # a capital I for an l
    ("bob", "b0b"),             # a zero for an o
    ("paypal", "𝔭𝒶ỿ𝕡𝕒ℓ"),
])
def test_it_refuses_a_name_that_looks_like_an_existing_one(client, make_user, existing, look_alike):
    make_user(existing)
    r = register(client, look_alike)
    assert r.status_code == 200
    assert field_errors(r.content.decode(), "username") == [LOOKS_TAKEN]
    assert User.objects.count() == 1


def test_it_refuses_mixed_scripts_but_not_one_script_or_japanese(client):
    r = register(client, "ΕλένηX")                  # Greek with a Latin X
    assert field_errors(r.content.decode(), "username") == [MIXED]
    for name in ("Петров", "Ελένη", "山田たろう", "zoë_1985"):
        assert register(client, name).status_code == 302, name
        client.logout()
    assert User.objects.count() == 4


def test_unlike_names_are_free(client, make_user):
    make_user("alice1")
    for name in ("alice2", "alicia", "jan-kowalski"):
        assert register(client, name).status_code == 302, name
        client.logout()


def test_a_guest_never_gets_a_name_that_looks_taken(monkeypatch, make_user):
    make_user("guest-lalala")       # made by an admin, say: a 1 looks like an l
    draws = iter(["1a1a1a", "c0ffee"])
    monkeypatch.setattr("accounts.models.secrets.token_hex", lambda n: next(draws))
    assert guest_user().username == "guest-c0ffee"


def test_a_guests_code_always_holds_a_digit_so_his_initials_are_every_guests(monkeypatch):
    draws = iter(["bcafed", "b1cafe"])      # letters only would read as a word: "GB", not "GU"
    monkeypatch.setattr("accounts.models.secrets.token_hex", lambda n: next(draws))
    assert guest_user().username == "guest-b1cafe"


def test_the_key_is_kept_with_the_name_and_found_in_one_indexed_lookup(make_user):
    user = make_user("alice1")
    assert user.name_key == names.name_key("alice1")
    user.username = "bob"
    user.save(update_fields=["username"])
    assert User.objects.get(pk=user.pk).name_key == names.name_key("bob")
    field = User._meta.get_field("name_key")
    assert field.db_index
    with CaptureQueriesContext(connection) as queries:
        assert confusable_with_existing("b0b")
        assert not confusable_with_existing("b0b", exclude_pk=user.pk)
    assert len(queries) == 2 and all('"name_key" =' in q["sql"] for q in queries)


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_existing_users_their_key():
    before = [("accounts", "0002_user_is_bot_account_apitoken")]
    after = [("accounts", "0003_user_name_key")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    OldUser = executor.loader.project_state(before).apps.get_model("accounts", "User")
    OldUser.objects.create(username="alice1")
    OldUser.objects.create(username="Ian")
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    keys = dict(User.objects.values_list("username", "name_key"))
    assert keys == {"alice1": names.name_key("alice1"), "Ian": names.name_key("lan")}


@pytest.mark.parametrize("look_alike", ["ᴅemo", "ᴅᴇᴍᴏ", "ＤＥＭＯ", "DEMO"])
def test_small_capitals_and_wide_letters_read_as_the_name_they_spell(client, make_user, look_alike):
    make_user("demo")
    r = register(client, look_alike)
    assert r.status_code == 200
    assert field_errors(r.content.decode(), "username") != []
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", ["guest_1", "Bot_basic", "bot.basic", "BOT+x", "ɢuest-12", "b0t-basic",
                                  "guest@home"])
def test_reserved_prefixes_are_refused_across_separators_and_look_alikes(client, name):
    r = register(client, name)
    assert r.status_code == 200, name
    assert field_errors(r.content.decode(), "username") == ["This name is reserved."]
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["botany", "guesthouse", "robot-1", "bot", "guest"])
def test_names_merely_starting_with_the_words_are_free(client, name):
    assert register(client, name).status_code == 302, name


@pytest.mark.django_db(transaction=True)
def test_the_migration_rekeys_existing_users_so_small_capitals_meet_their_letters():
    before = [("accounts", "0003_user_name_key")]
    after = [("accounts", "0004_name_key_folds_small_capitals")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    OldUser = executor.loader.project_state(before).apps.get_model("accounts", "User")
    OldUser.objects.create(username="ᴅᴇᴍᴏ", name_key="ᴅᴇʍo")      # the key as it used to be
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    assert User.objects.get(username="ᴅᴇᴍᴏ").name_key == names.name_key("demo")
    assert confusable_with_existing("demo")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
