"""The Grafana dashboard's panels drawn from a running Prometheus, as one PNG, where Grafana is not
at hand (Debian does not package it): ``python -m tools.dashboard_snapshot``.

    python -m tools.dashboard_snapshot --prometheus http://127.0.0.1:9090 --minutes 15 \
        --out docs/img/ops-dashboard.png [--end EPOCH]

Each panel of deploy/grafana/cards-dashboard.json keeps its title, place (gridPos) and queries;
every query is asked of Prometheus's ``/api/v1/query_range`` over the last ``--minutes``, a time
series panel drawn as lines (one per series, with its legend), a stat panel as its series' last
values. The page is SVG in HTML, photographed by Debian's chromium through Playwright.
"""
from __future__ import annotations

import argparse
import html
import json
import math
import re
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DASHBOARD = ROOT / "deploy" / "grafana" / "cards-dashboard.json"
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
CELL_W, ROW_H = 62, 34          # pixels per grid column (24 a row) and per grid row


def query_range(prometheus: str, expr: str, start: float, end: float, step: float) -> list[dict]:
    query = urllib.parse.urlencode({"query": expr, "start": start, "end": end, "step": step})
    with urllib.request.urlopen(f"{prometheus}/api/v1/query_range?{query}", timeout=30) as r:
        return json.loads(r.read())["data"]["result"]


def legend(fmt: str, labels: dict) -> str:
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: labels.get(m.group(1), ""), fmt).strip() or "value"


def human(value: float, unit: str) -> str:
    if value is None or math.isnan(value):
        return "–"
    if unit == "bytes":
        for suffix in ("B", "KiB", "MiB", "GiB", "TiB"):
            if abs(value) < 1024:
                return f"{value:.1f} {suffix}"
            value /= 1024
    if unit == "s":
        return f"{value * 1000:.0f} ms" if abs(value) < 1 else f"{value:.1f} s"
    return f"{value:.2f}" if abs(value) < 10 else f"{value:.0f}"


def series_of(prometheus: str, panel: dict, start: float, end: float, step: float) -> list[tuple[str, list]]:
    out = []
    for target in panel["targets"]:
        for result in query_range(prometheus, target["expr"], start, end, step):
            points = [(float(t), float(v)) for t, v in result["values"] if v not in ("NaN", "+Inf", "-Inf")]
            out.append((legend(target.get("legendFormat", ""), result["metric"]), points))
    return out


def timeseries_svg(series, width: int, height: int, unit: str, start: float, end: float) -> str:
    left, right, top, bottom = 64, 8, 8, 22
    values = [v for _name, points in series for _t, v in points]
    low, high = (min(values + [0.0]), max(values + [0.0])) if values else (0.0, 1.0)
    if high == low:
        high = low + 1
    w, h = width - left - right, height - top - bottom
    x = lambda t: left + (t - start) / (end - start) * w        # noqa: E731
    y = lambda v: top + h - (v - low) / (high - low) * h        # noqa: E731
    parts = [f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#111217" stroke="#2c3235"/>']
    for i in range(5):
        v = low + (high - low) * i / 4
        parts.append(f'<line x1="{left}" x2="{left + w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#2c3235"/>'
                     f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end">{html.escape(human(v, unit))}</text>')
    for minutes_back in range(0, int((end - start) / 60) + 1, 5):
        t = end - minutes_back * 60
        parts.append(f'<text x="{x(t):.1f}" y="{height - 6}" text-anchor="middle">'
                     f'{time.strftime("%H:%M", time.gmtime(t))}</text>')
    for i, (_name, points) in enumerate(series):
        if points:
            path = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in points)
            parts.append(f'<polyline fill="none" stroke="{COLOURS[i % len(COLOURS)]}" stroke-width="1.6" points="{path}"/>')
    return f'<svg width="{width}" height="{height}">{"".join(parts)}</svg>'


def panel_html(prometheus: str, panel: dict, start: float, end: float, step: float) -> str:
    pos = panel["gridPos"]
    width, height = pos["w"] * CELL_W - 8, pos["h"] * ROW_H - 8
    unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit", "short")
    series = series_of(prometheus, panel, start, end, step)
    style = f"left:{pos['x'] * CELL_W}px;top:{pos['y'] * ROW_H}px;width:{width}px;height:{height}px"
    title = f"<h2>{html.escape(panel['title'])}</h2>"
    if panel["type"] == "stat":
        cells = "".join(f'<div class="stat"><b>{html.escape(human(points[-1][1] if points else float("nan"), unit))}'
                        f'</b><span>{html.escape(name)}</span></div>' for name, points in series) or "<p>no data</p>"
        return f'<section style="{style}">{title}<div class="stats">{cells}</div></section>'
    keys = "".join(f'<span><i style="background:{COLOURS[i % len(COLOURS)]}"></i>{html.escape(name)}</span>'
                   for i, (name, _p) in enumerate(series)) or "<span>no data</span>"
    svg = timeseries_svg(series, width - 12, height - 58, unit, start, end)
    return f'<section style="{style}">{title}{svg}<div class="keys">{keys}</div></section>'


def page(prometheus: str, minutes: float, end: float | None = None) -> str:
    dashboard = json.loads(DASHBOARD.read_text())
    end = time.time() if end is None else end
    start = end - minutes * 60
    step = max(5.0, minutes * 60 / 240)
    panels = "".join(panel_html(prometheus, p, start, end, step) for p in dashboard["panels"])
    bottom = max(p["gridPos"]["y"] + p["gridPos"]["h"] for p in dashboard["panels"]) * ROW_H
    head = (f"{html.escape(dashboard['title'])} · Prometheus {html.escape(prometheus)} · "
            f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(start))}–{time.strftime('%H:%M UTC', time.gmtime(end))}")
    return f"""<!doctype html><meta charset="utf-8"><style>
body {{ margin: 0; background: #0b0c0e; color: #ccccdc; font: 12px sans-serif; }}
header {{ padding: 10px 12px; font-size: 15px; }}
main {{ position: relative; height: {bottom}px; margin: 0 8px 8px; }}
section {{ position: absolute; background: #181b1f; border: 1px solid #2c3235; border-radius: 3px; padding: 4px 6px; }}
h2 {{ margin: 0 0 4px; font-size: 13px; }} text {{ fill: #9fa7b3; font-size: 10px; }}
.keys {{ display: flex; flex-wrap: wrap; gap: 2px 10px; overflow: hidden; max-height: 30px; }}
.keys i {{ display: inline-block; width: 10px; height: 3px; margin-right: 4px; vertical-align: middle; }}
.stats {{ display: flex; gap: 12px; flex-wrap: wrap; }} .stat b {{ display: block; font-size: 20px; color: #73bf69; }}
</style><header>{head}</header><main>{panels}</main>"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prometheus", default="http://127.0.0.1:9090")
    ap.add_argument("--minutes", type=float, default=15)
    ap.add_argument("--out", default=str(ROOT / "docs" / "img" / "ops-dashboard.png"))
    ap.add_argument("--end", type=float, help="the window's end (epoch seconds; default: now)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args(argv)
    document = page(args.prometheus.rstrip("/"), args.minutes, args.end)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=["--headless", "--no-sandbox"])
        tab = browser.new_page(viewport={"width": 24 * CELL_W + 16, "height": 900})
        tab.set_content(document)
        tab.screenshot(path=args.out, full_page=True)
        browser.close()
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
