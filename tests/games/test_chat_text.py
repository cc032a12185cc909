"""A chat line keeps no control and no bidi-override characters (games/chat_text.py), whoever sends it."""
import pytest

from games import chat_text, messages, services
from realtime.errors import ServiceError


@pytest.mark.parametrize("sent, kept", [
    ("hi\x00 there", "hi there"),
    ("\x1b[31mred\x1b[0m", "[31mred[0m"),
    ("a\u0085b\u009bc", "a bc"),                     # C1: NEXT LINE becomes a space, CSI goes
    ("invoice_\u202egnp.exe", "invoice_gnp.exe"),    # a right-to-left override
    ("\u2067abc\u2069 \u202adef\u202c \u200eghi\u200f\u061c", "abc def ghi"),
    ("two\nlines\r\nand\ttab", "two lines  and tab"),
    ("para\u2029graph", "para graph"),
    ("zażółć gęślą jaźń 👍🏽 👨‍👩‍👧", "zażółć gęślą jaźń 👍🏽 👨‍👩‍👧"),   # letters, emoji and their joiners stay
])
def test_it_removes_controls_and_bidi_controls(sent, kept):
    assert chat_text.clean(sent) == kept


@pytest.mark.django_db
def test_the_stored_and_sent_line_is_the_clean_one_and_an_empty_one_is_refused(make_user, task_queue):
    ala = make_user("ala")
    t = services.create_table(ala, "sixtysix")
    assert services.chat(t.pk, ala, "gg\u202e \x00wp")["text"] == "gg wp"
    msg, _seat = messages.snapshot(t.pk, ala)
    assert [m["text"] for m in msg["chat"]] == ["gg wp"]
    with pytest.raises(ServiceError) as refused:
        services.chat(t.pk, ala, "\u202e\x00\u2066 \n")
    assert refused.value.code == "bad_request"
    msg, _seat = messages.snapshot(t.pk, ala)
    assert len(msg["chat"]) == 1
