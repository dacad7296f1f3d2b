"""The container, compose, Kubernetes and nginx recipes agree with the app's own configuration.

No Docker engine runs on these machines, so the recipes are parsed and cross-checked; the nginx configuration is
rendered as the nginx image would render it and checked by a real nginx where one is installed, and the sticky
routing is exercised end to end with two app servers on loopback.
"""

from __future__ import annotations

import http.cookiejar
import shlex
import shutil
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import _serve  # noqa: E402  (benchmarks/ is a folder of scripts, not a package)

HEALTH = "/_stcore/health"


@pytest.fixture(scope="module")
def streamlit_config() -> dict:
    return tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())


@pytest.fixture(scope="module")
def port(streamlit_config) -> int:
    return streamlit_config["server"]["port"]


def _dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) pairs, with backslash continuations joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def _instructions(name: str) -> list[str]:
    return [args for instruction, args in _dockerfile() if instruction == name]


def _k8s() -> dict[str, dict]:
    documents = {}
    for path in sorted((ROOT / "deploy" / "k8s").glob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text()):
            documents[document["kind"]] = document
    return documents


def _serves_app(command: list[str], port: int) -> None:
    # the launcher that warms the first page up, not a bare `streamlit run app.py`
    assert command[:2] == ["python", "serve.py"], command
    assert f"--server.port={port}" in command
    # inside a container the loopback-only default of config.toml would make the app unreachable
    assert "--server.address=0.0.0.0" in command


def test_dockerfile_is_slim_python_311_non_root_with_fonts_and_a_health_check(port):
    assert _instructions("FROM") == ["python:3.11-slim"]
    installed = " ".join(_instructions("RUN"))
    for package in ("fonts-noto-cjk", "libpango-1.0-0", "libpangoft2-1.0-0"):
        assert package in installed, f"the image needs {package} for PDF reports"
    assert "pip install --no-cache-dir -r requirements.txt" in installed
    user = _instructions("USER")
    assert user and user[-1] not in ("root", "0")
    assert _instructions("EXPOSE") == [str(port)]
    (healthcheck,) = _instructions("HEALTHCHECK")
    assert f"http://127.0.0.1:{port}{HEALTH}" in healthcheck
    (cmd,) = _instructions("CMD")
    _serves_app(yaml.safe_load(cmd), port)


def test_the_image_carries_what_the_app_reads_and_not_the_local_environment():
    copied = {source for args in _instructions("COPY") for source in shlex.split(args)[:-1]}
    assert {"app.py", "serve.py", "app_pages", "selector", "knowledge", ".streamlit", "requirements.txt"} <= copied
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".venv" in ignored and ".git" in ignored


def test_the_image_compiles_the_app_and_parses_the_knowledge_at_build_time():
    # a fresh container's first page would otherwise compile every module and parse every YAML file
    run = " ".join(_instructions("RUN"))
    assert "python -m compileall -q app.py serve.py app_pages selector" in run
    assert "python -m selector validate" in run
    env = " ".join(_instructions("ENV"))
    cache = next(part.split("=", 1)[1] for part in env.split() if part.startswith("SELECTOR_CACHE_DIR="))
    assert cache.startswith("/app/"), "the parse cache must be built into the image, where the server user reads it"
    steps = [(i, args) for i, args in _dockerfile() if i in ("ENV", "RUN", "USER")]
    built = next(n for n, (i, args) in enumerate(steps) if "selector validate" in args)
    cached = next(n for n, (i, args) in enumerate(steps) if "SELECTOR_CACHE_DIR=" in args)
    user = next(n for n, (i, args) in enumerate(steps) if i == "USER")
    assert cached < built < user


def test_make_run_and_the_replicas_serve_through_the_launcher():
    recipe = (ROOT / "Makefile").read_text().split("\nrun: install\n", 1)[1].split("\n\n", 1)[0]
    assert recipe.strip() == "$(BIN)/python serve.py", recipe


def test_compose_puts_replicas_behind_the_sticky_proxy(port):
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    app, proxy = compose["services"]["app"], compose["services"]["proxy"]
    assert "command" not in app, "the replicas run the image's CMD (the launcher)"
    assert app["expose"] == [str(port)]
    assert app["deploy"]["replicas"] >= 2
    assert any(f"127.0.0.1:{port}{HEALTH}" in part for part in app["healthcheck"]["test"])
    assert proxy["environment"]["APP_SERVERS"] == f"server app:{port};"
    (mount,) = proxy["volumes"]
    source, target = mount.split(":")[:2]
    assert (ROOT / source).resolve() == ROOT / "deploy" / "nginx" / "sticky.conf.template"
    assert target.startswith("/etc/nginx/templates/") and target.endswith(".template")
    listen = proxy["environment"]["LISTEN_PORT"]
    assert proxy["ports"] == [f"127.0.0.1:{listen}:{listen}"]
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"


def test_kubernetes_probes_ports_and_affinity_agree_with_the_app(port):
    documents = _k8s()
    deployment, service, ingress = documents["Deployment"], documents["Service"], documents["Ingress"]
    pod = deployment["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    _serves_app(container["command"], port)
    assert container["ports"] == [{"name": "http", "containerPort": port}]
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": HEALTH, "port": "http"}
    requests = container["resources"]["requests"]
    assert requests["memory"].endswith("Mi") and int(requests["memory"][:-2]) > 0
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    assert deployment["spec"]["selector"]["matchLabels"] == pod["metadata"]["labels"] == service["spec"]["selector"]
    assert service["spec"]["ports"][0]["targetPort"] == "http"
    annotations = ingress["metadata"]["annotations"]
    assert annotations["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == service["metadata"]["name"]


@pytest.mark.subprocess
def test_the_nginx_template_renders_to_a_valid_configuration(tmp_path):
    text = _serve.nginx_config([8501, 8502], 8080, tmp_path)
    assert "${" not in text, "a template variable was left unfilled"
    assert "hash $selector_route consistent;" in text
    assert "server 127.0.0.1:8501; server 127.0.0.1:8502;" in text
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.skip("nginx is not installed (make install adds it as root)")
    config = tmp_path / "nginx.conf"
    config.write_text(text)
    checked = subprocess.run([nginx, "-t", "-c", str(config), "-p", str(tmp_path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.server
def test_a_browser_stays_on_one_replica_and_browsers_spread_over_both():
    if not Path(shutil.which("nginx") or "/usr/sbin/nginx").exists():
        pytest.skip("nginx is not installed (make install adds it as root)")
    with _serve.replicas(2) as served:
        first_replica = set()
        for _ in range(16):
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            seen = {opener.open(served.url + HEALTH).headers["X-Selector-Replica"] for _ in range(4)}
            assert len(seen) == 1, f"one browser's requests reached several replicas: {seen}"
            first_replica |= seen
        # 16 browsers all on one of two replicas happens with probability 2**-15 if routing spreads them
        assert len(first_replica) == 2
