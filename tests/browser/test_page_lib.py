"""static/js/lib/, the helpers every page script imports, run in the browser as the pages load
them: fmt fills a translated string's placeholders, and reconnectDelay is the one backoff of
every page's socket (0.5 s doubling to at most 15 s, with ±20% jitter)."""
import pytest

pytestmark = pytest.mark.browser

# Imported next to the home page's own module script, from where the page loads it.
LOAD = """async () => {
  const base = document.querySelector('script[type=module][src*="js/pool"]').src;
  const lib = (name) => import(new URL("lib/" + name + ".js", base).href);
  window.lib = { fmt: (await lib("fmt")).fmt, backoff: await lib("reconnect") };
}"""

# The delays after 0, 1, 2, ... failures with Math.random() answering ``r``.
DELAYS = """(r) => {
  const real = Math.random;
  Math.random = () => r;
  try { return [0, 1, 2, 3, 4, 5, 6, 10, 40].map(window.lib.backoff.reconnectDelay); }
  finally { Math.random = real; }
}"""


@pytest.fixture
def page(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    page.evaluate(LOAD)
    return page


def test_fmt_fills_the_placeholders_it_has_values_for_and_leaves_the_others(page):
    fmt = "([text, args]) => window.lib.fmt(text, args)"
    assert page.evaluate(fmt, ["{p} plays {c}, {p} again {x}", {"p": "Ann", "c": "Q♠"}]) == "Ann plays Q♠, Ann again {x}"
    assert page.evaluate(fmt, ["{n} of {total}", {"n": 0, "total": 5}]) == "0 of 5"
    assert page.evaluate(fmt, ["no {args} at all", None]) == "no {args} at all"


def test_the_backoff_doubles_from_half_a_second_to_fifteen_with_a_fifth_of_jitter(page):
    assert page.evaluate(DELAYS, 0.5) == [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000, 15000]
    low, high = page.evaluate(DELAYS, 0), page.evaluate(DELAYS, 0.999999)
    assert low[0] == pytest.approx(400) and low[-1] == pytest.approx(12000)
    assert high[0] == pytest.approx(600, abs=0.01) and high[-1] == pytest.approx(18000, abs=0.1)
    assert page.evaluate("() => [window.lib.backoff.FIRST_RETRY_MS, window.lib.backoff.LATEST_RETRY_MS]") == [500, 15000]
