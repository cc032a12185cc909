"""Django's ``{# ... #}`` comment ends on its own line: one that runs over two lines is printed on
the page as text (it once showed a paragraph of notes in the home page's level picker). Longer
notes take ``{% comment %}``."""
from tests.embedded import ROOT


def test_no_template_comment_runs_over_a_line():
    bad = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.count("{#") != line.count("#}"):
                bad.append(f"{path.relative_to(ROOT)}:{number}")
    assert not bad, bad
