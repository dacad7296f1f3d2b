#!/usr/bin/env bash
# Installs what the project needs and does not have yet: Debian packages (when root), the virtual environment and
# the pinned Python packages. Every step first checks what is there, so a second run does nothing and takes < 1 s.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1

VENV=${VENV:-.venv}
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3 || true)}
REQUIREMENTS=(requirements.txt requirements-dev.txt)
STAMP="$VENV/.requirements.sha256"

# `grep -q` would close the pipe early and, under pipefail, a SIGPIPE in the writer reads as "not found";
# reading the whole output avoids that false negative.
has_font() { command -v fc-list >/dev/null && fc-list : family 2>/dev/null | grep -i "$1" >/dev/null; }
has_lib() { { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null || true; } | grep -F "$1" >/dev/null; }

# --- system packages: a real browser for the end-to-end tests and static charts, a CJK font and Pango for PDF
# reports, poppler for the tests that read PDFs back.
missing=()
command -v chromium >/dev/null || missing+=(chromium)
has_font "Noto Sans CJK" || missing+=(fontconfig fonts-noto-cjk)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
# nginx: the reverse proxy of the team set-up, checked by tests/test_deploy.py and used by `make run-replicas`
[[ -x /usr/sbin/nginx ]] || command -v nginx >/dev/null || missing+=(nginx)
has_lib libpango-1.0.so.0 || missing+=(libpango-1.0-0)
has_lib libpangoft2-1.0.so.0 || missing+=(libpangoft2-1.0-0)
if [[ ! -x "$VENV/bin/python" && -n "$PYTHON" ]] && ! "$PYTHON" -c "import ensurepip" 2>/dev/null; then
    missing+=(python3-venv)  # Debian ships venv's ensurepip separately
fi
if ((${#missing[@]})); then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        echo "install: Debian packages missing: ${missing[*]}"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
    else
        echo "install: WARNING: missing ${missing[*]}; install them as root (apt-get install -y ${missing[*]})," \
            "otherwise the browser, PDF and font-dependent tests fail" >&2
    fi
fi

# --- Python 3.11 virtual environment
if [[ -z "$PYTHON" ]]; then
    echo "install: no python3.11 or python3 on PATH; install Python 3.11 (Debian: apt-get install -y python3)" >&2
    exit 1
fi
if [[ ! -x "$VENV/bin/python" ]]; then
    if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
        echo "install: $PYTHON is Python $("$PYTHON" -V 2>&1); the pinned requirements need 3.11 (set PYTHON=...)" >&2
        exit 1
    fi
    echo "install: creating $VENV with $PYTHON"
    "$PYTHON" -m venv "$VENV"
fi

# --- pinned packages, reinstalled only when a requirements file changed since the last successful install
wanted=$(cat "${REQUIREMENTS[@]}" | sha256sum | cut -d' ' -f1)
if [[ ! -f "$STAMP" || $(cat "$STAMP") != "$wanted" ]]; then
    "$VENV/bin/python" -m pip install --quiet -r requirements-dev.txt
    echo "$wanted" >"$STAMP"
fi

# --- bytecode of the project's own modules. Where PYTHONDONTWRITEBYTECODE is set (these machines, the image) Python
# never stores what it compiles, so every CLI process and server start would compile selector/ and app_pages/
# again (~0.15 s); the Dockerfile does the same. compileall skips files whose bytecode is current.
"$VENV/bin/python" -m compileall -q app.py serve.py app_pages selector >/dev/null
