"""Serve the app for benchmarks: one server (serve.py) on a free loopback port, or N of them behind nginx (sticky).

Not a benchmark itself (the leading underscore keeps `make bench` from running it); run it directly to try the
team set-up by hand: `python benchmarks/_serve.py --replicas 2` serves http://127.0.0.1:<port> until Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import string
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "deploy" / "nginx" / "sticky.conf.template"
APP = ROOT / "app.py"
STARTUP_SECONDS = 90


@dataclass(frozen=True)
class Served:
    """Where the app answers, the server processes behind it (for their memory) and, when the servers time their
    script runs (``timed=True``), the files they log them to (benchmarks/_timed_streamlit.py)."""

    url: str
    pids: tuple[int, ...]
    run_logs: tuple[Path, ...] = ()
    backends: tuple[str, ...] = ()  # behind a proxy: each server's own address (to warm every one of them up)

    def run_seconds(self) -> list[float]:
        """Every script run the servers have logged so far, in seconds (the post-run work included)."""
        lines = [line for log in self.run_logs if log.exists() for line in log.read_text().splitlines()]
        return [float(line.split()[0]) for line in lines]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    """Resident memory of one process in MB, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, in seconds, from /proc (Linux); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def browser_cpu_seconds() -> float:
    """CPU time of every chromium process now alive (the load generator's browsers), in seconds."""
    total = 0.0
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip().startswith(("chromium", "chrome")):
                total += cpu_seconds(int(comm.parent.name))
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def wait_healthy(
    url: str, process: subprocess.Popen, what: str, poll: float = 0.2, timeout: float = STARTUP_SECONDS
) -> None:
    """Return once URL's health endpoint answers 200; raise, naming WHAT, if the process dies or time runs out."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not answer {url}/_stcore/health within {timeout:g} s")
        time.sleep(poll)


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@contextlib.contextmanager
def streamlit(
    script: str = "app.py", *, session_ttl: int | None = None, port: int | None = None, timed: bool = False
) -> Iterator[Served]:
    """SCRIPT served from the repository root on PORT (default: a free one): the app as `make run` serves it
    (serve.py, warmed up), any other script by a plain `streamlit run`. With `timed`, the same through
    benchmarks/_timed_streamlit.py, which logs the time of every script run (:meth:`Served.run_seconds`)."""
    port = port or free_port()
    app = (ROOT / script).resolve() == APP
    if timed:
        command = [
            sys.executable,
            str(ROOT / "benchmarks" / "_timed_streamlit.py"),
            *(["serve"] if app else ["run", script]),
        ]
    elif app:
        command = [sys.executable, str(ROOT / "serve.py")]
    else:
        command = [sys.executable, "-m", "streamlit", "run", script]
    command += ["--server.port", str(port), "--server.headless", "true", "--server.address", "127.0.0.1"]
    command += ["--browser.gatherUsageStats", "false"]
    if session_ttl is not None:
        command += ["--server.disconnectedSessionTTL", str(session_ttl)]
    with tempfile.TemporaryDirectory(prefix="selector-serve-") as folder:
        run_log = Path(folder) / "runs.txt"
        env = {**os.environ, "SELECTOR_RUN_LOG": str(run_log), "PYTHONPATH": str(ROOT)} if timed else None
        with (Path(folder) / "server.log").open("wb") as log:
            process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, process, f"streamlit on port {port}")
            yield Served(url, (process.pid,), (run_log,) if timed else ())
        finally:
            _stop(process)


def nginx_config(upstream_ports: list[int], listen_port: int, prefix: Path) -> str:
    """The shipped template, filled in as the nginx image's envsubst would, inside a minimal nginx.conf."""
    servers = " ".join(f"server 127.0.0.1:{port};" for port in upstream_ports)
    site = string.Template(TEMPLATE.read_text()).safe_substitute(APP_SERVERS=servers, LISTEN_PORT=str(listen_port))
    # Debian's nginx defaults to system paths; a private prefix keeps logs, pid and temp files out of /var.
    return (
        f"worker_processes 1;\npid {prefix}/nginx.pid;\nerror_log {prefix}/error.log;\n"
        "events { worker_connections 1024; }\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {prefix}/body;\n  proxy_temp_path {prefix}/proxy;\n"
        f"  fastcgi_temp_path {prefix}/fastcgi;\n  uwsgi_temp_path {prefix}/uwsgi;\n  scgi_temp_path {prefix}/scgi;\n"
        f"{site}\n}}\n"
    )


@contextlib.contextmanager
def replicas(count: int, *, session_ttl: int | None = None, timed: bool = False) -> Iterator[Served]:
    """COUNT app servers on loopback ports and nginx in front with the shipped sticky-routing configuration
    (`timed`: each logs its script runs, as :func:`streamlit` says)."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise RuntimeError("nginx is not installed (Debian: apt-get install -y nginx)")
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(streamlit(session_ttl=session_ttl, timed=timed)) for _ in range(count)]
        ports = [int(served.url.rsplit(":", 1)[1]) for served in servers]
        prefix = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="selector-nginx-")))
        listen = free_port()
        config = prefix / "nginx.conf"
        config.write_text(nginx_config(ports, listen, prefix))
        subprocess.run([nginx, "-t", "-q", "-c", str(config), "-p", str(prefix)], check=True)
        process = subprocess.Popen(
            [nginx, "-c", str(config), "-p", str(prefix), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        stack.callback(_stop, process)
        url = f"http://127.0.0.1:{listen}"
        wait_healthy(url, process, "nginx")
        yield Served(
            url,
            tuple(pid for served in servers for pid in served.pids),
            tuple(log for served in servers for log in served.run_logs),
            tuple(served.url for served in servers),
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2, help="app servers behind nginx (default 2)")
    args = parser.parse_args()
    with replicas(args.replicas) as served:
        print(f"serving {served.url} ({args.replicas} replicas, server pids {served.pids}); Ctrl-C stops", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
