"""deploy/: the systemd units, Prometheus's rules and configuration, nginx's configuration and the
Grafana dashboard are valid, match the Procfile, and name only metrics the site exposes."""
from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from prometheus_client import Counter, Histogram

from ops import metrics, registry
from tests.embedded import ROOT

DEPLOY = ROOT / "deploy"
UNITS = DEPLOY / "systemd"
METRIC = re.compile(r"\bcards_[a-z_]+\b")


def _tool(name: str) -> str:
    found = shutil.which(name) or next((p for p in (f"/usr/bin/{name}", f"/usr/sbin/{name}") if Path(p).exists()), None)
    if found is None:
        pytest.skip(f"{name} is not installed here (`make test` installs it)")
    return found


def test_the_units_pass_systemd_analyze_verify(tmp_path):
    tool = _tool("systemd-analyze")
    for unit in UNITS.iterdir():
        # The units name /srv/cards; here the checkout stands in for it, so that their commands exist.
        (tmp_path / unit.name).write_text(unit.read_text().replace("/srv/cards", str(ROOT)))
    names = sorted(p.name.replace("@.service", "@8001.service") for p in tmp_path.iterdir()
                   if p.suffix in (".service", ".timer", ".target"))
    done = subprocess.run([tool, "verify", "--man=no", *names], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def _procfile() -> dict[str, list[str]]:
    out = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, command = line.partition(":")
            out[name] = shlex.split(command)
    return out


def _exec_start(unit: str) -> list[str]:
    line = next(l for l in (UNITS / unit).read_text().splitlines() if l.startswith("ExecStart="))
    words = shlex.split(line.removeprefix("ExecStart=").replace("%%", "%"))
    words[0] = words[0].removeprefix("/srv/cards/.venv/bin/")
    return words


def test_every_procfile_process_has_a_unit_running_the_same_command():
    procfile = _procfile()
    web = _exec_start("cards-web@.service")
    for name in ("web1", "web2"):
        expected = procfile[name]
        expected[expected.index("--port") + 1] = "%i"
        expected[expected.index("--host") + 1] = "127.0.0.1"       # only nginx reaches them
        assert web == expected
    assert _exec_start("cards-worker.service") == procfile["worker"]
    assert ["nice", "-n", "10", *_exec_start("cards-analysis.service")] == procfile["analysis"]
    beat = _exec_start("cards-beat.service")
    assert beat[:-1] == procfile["beat"][:-1]        # its schedule in the state directory
    for unit in ("cards-web@.service", "cards-worker.service", "cards-analysis.service", "cards-beat.service"):
        text = (UNITS / unit).read_text()
        assert "Restart=always" in text and "KillSignal=SIGTERM" in text and "MemoryMax=" in text
        assert "Requires=cards-metrics-dir.service" in text
    assert "/readyz" in (UNITS / "cards-web@.service").read_text()


def test_prometheus_rules_and_configuration_pass_promtool():
    tool = _tool("promtool")
    for args in (["check", "rules", "alerts.yml"], ["check", "config", "prometheus.yml"]):
        done = subprocess.run([tool, *args], cwd=DEPLOY / "prometheus", capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr


def test_nginx_accepts_the_proxy_configuration(tmp_path):
    tool = _tool("nginx")
    (tmp_path / "nginx.conf").write_text(f"""
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log;
events {{}}
http {{ access_log off; client_body_temp_path {tmp_path}/body; proxy_temp_path {tmp_path}/proxy;
        fastcgi_temp_path {tmp_path}/f; uwsgi_temp_path {tmp_path}/u; scgi_temp_path {tmp_path}/s;
        include {DEPLOY / "nginx.conf"}; }}
""".replace("listen 80;", ""))
    conf = (DEPLOY / "nginx.conf").read_text().replace("listen 80;", "listen 127.0.0.1:18080;")
    (tmp_path / "site.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text((tmp_path / "nginx.conf").read_text().replace(
        str(DEPLOY / "nginx.conf"), str(tmp_path / "site.conf")))
    done = subprocess.run([tool, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "location ~ ^/(healthz|readyz)$" in conf


def _exposed_names(tmp_path, settings) -> set[str]:
    """Every sample name /metrics can carry: the scrape's, and each declared metric's series."""
    settings.BACKUP_DIR = str(tmp_path)
    (tmp_path / "cards-1.dump").write_bytes(b"x")
    names = set(registry.readings())
    for value in vars(metrics).values():
        if isinstance(value, Counter):
            names.add(value._name + "_total")
        elif isinstance(value, Histogram):
            names.update(value._name + suffix for suffix in ("_bucket", "_sum", "_count"))
        elif hasattr(value, "_name") and hasattr(value, "_multiprocess_mode"):
            names.add(value._name)
    return names


def _named_in_deploy() -> dict[str, set[str]]:
    dashboard = json.loads((DEPLOY / "grafana/cards-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    # promtool checks the file's shape; here its lines but the comments are what is named
    rules = [line.split("#")[0] for line in (DEPLOY / "prometheus/alerts.yml").read_text().splitlines()]
    return {"dashboard": {m for e in exprs for m in METRIC.findall(e)},
            "alerts": {m for e in rules for m in METRIC.findall(e)}}


@pytest.mark.django_db(transaction=True)
def test_every_metric_the_dashboard_and_the_alerts_name_is_exposed(tmp_path, settings, make_user, task_queue):
    from games import services

    ala, ola = make_user("ala"), make_user("ola")
    table = services.create_table(ala, "sixtysix", "kurnik")
    services.sit(table.pk, ola, 1)
    exposed = _exposed_names(tmp_path, settings)
    named = _named_in_deploy()
    assert len(named["dashboard"]) >= 15 and len(named["alerts"]) >= 10
    for where, found in named.items():
        assert found - exposed == set(), where
    # what the issue asks to be watched is there
    for wanted in ("cards_moves_total", "cards_move_seconds_bucket", "cards_sockets_open", "cards_tables_live",
                   "cards_bot_think_seconds_bucket", "cards_refusals_total", "cards_queue_depth",
                   "cards_analysis_backlog", "cards_pool_waiters", "cards_process_resident_bytes",
                   "cards_event_loop_lag_seconds", "cards_errors_total"):
        assert wanted in named["dashboard"], wanted
