"""Each hostile fixture (tests/fixtures/hostile/) through every door: ``validate --extra``, ``rank --extra``, a
profile (file and CLI), a shareable link's data and the My data upload. Each refuses it with the same message, names
the file, warns nothing, and leaves knowledge/ as it was. Non-regular files (devices, pipes, directories) are refused
at once."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import time
import warnings
import zlib
from pathlib import Path

import pytest
import yaml

from selector import profile
from selector.__main__ import main
from selector.uploads import intake
from tests.app.helpers import markdown_tables
from tests.conftest import FIXTURES, KNOWLEDGE, ROOT

HOSTILE = FIXTURES / "hostile"
EDGE = "edge-accelerators"
MARKER = b"expect-error"

# (fixture, a fragment of the message every door must show); other tests keep their own fixtures in this folder too.
CASES = [
    ("yaml11_octal.yaml", "`017` is read by YAML 1.1 as an octal number"),
    ("yaml11_hex.yaml", "`0x1E` is read by YAML 1.1 as a hexadecimal number"),
    ("yaml11_binary.yaml", "`0b11110` is read by YAML 1.1 as a binary number"),
    ("yaml11_underscore.yaml", "`3_0` is read by YAML 1.1 as a number with `_` separators"),
    ("yaml11_sexagesimal.yaml", "`1:20` is read by YAML 1.1 as a base-60"),
    ("yaml12_octal.yaml", "`0o36` is read by YAML 1.1 as text but by YAML 1.2 as a number"),
    ("yaml11_octal_key.yaml", "`010` is read by YAML 1.1 as an octal number"),
    ("yaml11_date.yaml", "`2024-01-01` is read by YAML 1.1 as a date"),
    ("complex_key.yaml", "a key must be text, not a list"),
    ("non_text_key.yaml", "the key `1` is read as int, not text"),
    ("tag_binary.yaml", "the tag `!!binary` is not allowed"),
    ("boolean_value.yaml", "`true` is a boolean, not a number"),
    ("boolean_weight.yaml", "`true` is a boolean, not a number"),
    ("quoted_number.yaml", "'30' is text, not a number"),
    ("huge_group_weight.yaml", "less than or equal to 1000000"),
    ("nul_byte.yaml", "U+0000 (NUL) is a control character"),
    ("nul_byte.csv", "U+0000 (NUL) is a control character"),
    ("terminal_escape.yaml", "U+001B (ESC) is a control character"),
    ("terminal_escape.csv", "U+001B (ESC) is a control character"),
    ("bidi_override.yaml", "U+202E (RIGHT-TO-LEFT OVERRIDE) is a bidirectional control"),
    ("bidi_override.csv", "U+202E (RIGHT-TO-LEFT OVERRIDE) is a bidirectional control"),
    ("bidi_isolate.yaml", "U+2067 (RIGHT-TO-LEFT ISOLATE) is a bidirectional control"),
    ("escaped_bidi.yaml", "U+202E (RIGHT-TO-LEFT OVERRIDE) is a bidirectional control"),
    ("zero_width.yaml", "U+200B (ZERO WIDTH SPACE) is an invisible zero-width character"),
    ("zero_width.csv", "U+200B (ZERO WIDTH SPACE) is an invisible zero-width character"),
]


def _tree_hash(directory: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(directory.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(directory)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


KNOWLEDGE_BEFORE = _tree_hash(KNOWLEDGE)


def _core(message: str) -> str:
    """The message without its ``column N:`` prefix (a profile embeds the file, so columns shift)."""
    head, sep, rest = message.partition(": ")
    if head.startswith("column ") and sep:
        return rest
    return message.removeprefix("the escaped text ")


def _canonical(name: str) -> str:
    """The first error the upload checker gives: the message every door must show."""
    result = intake.validate_upload(name, (HOSTILE / name).read_bytes(), KNOWLEDGE)
    assert not result.ok, f"{name} must be refused"
    return result.errors[0].message


@pytest.mark.parametrize(("name", "fragment"), CASES)
def test_the_upload_checker_refuses_at_the_marked_line(name: str, fragment: str) -> None:
    path = HOSTILE / name
    result = intake.validate_upload(name, path.read_bytes(), KNOWLEDGE)
    assert not result.ok
    [marked] = [n for n, line in enumerate(path.read_bytes().split(b"\n"), start=1) if MARKER in line]
    hits = [i for i in result.errors if fragment in i.message]
    assert hits, [str(i) for i in result.errors]
    assert hits[0].line == marked, (hits[0], marked)
    assert hits[0].file == name


@pytest.fixture(scope="module")
def screen():
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.run()
    app.switch_page("app_pages/my_data.py").run()
    assert not app.exception, app.exception
    return app


def _page_text(app) -> str:
    parts = [e.value for e in (*app.error, *app.success, *app.warning, *app.info)]
    for frame in app.dataframe:
        parts.extend(frame.value.astype(str).to_numpy().ravel())
    # messages are in Markdown tables, each cell escaped (read as the reader sees them: escapes resolved)
    for table in markdown_tables(app):
        parts.extend(table.to_numpy().ravel())
    # as the reader sees them: the word joiner that keeps a colon or an @ from starting a link or icon is invisible
    return "\n".join(str(p) for p in parts).replace("\u2060", "")


def _profile_for(name: str, tmp_path: Path) -> Path:
    # Written with PyYAML, not profile.dump: a profile refuses to embed hidden characters, a hand-made one may try.
    text = (HOSTILE / name).read_bytes().decode("utf-8")
    saved = tmp_path / f"{Path(name).stem}-profile.yaml"
    saved.write_text(yaml.safe_dump({"preferences": {"group": EDGE}, "uploads": [{"name": name, "text": text}]}))
    return saved


def _link_data(payload: bytes) -> str:
    """A link's `data` parameter as selector.profile.encode_uploads writes it (which refuses hidden characters)."""
    return base64.urlsafe_b64encode(zlib.compress(payload)).rstrip(b"=").decode("ascii")


@pytest.mark.app
@pytest.mark.parametrize(("name", "fragment"), CASES)
def test_every_door_refuses_with_the_same_message(name, fragment, screen, tmp_path, capsys) -> None:
    path = str(HOSTILE / name)
    message = _canonical(name)
    assert fragment in message
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        assert main(["validate", "--extra", path]) == 2
        out = capsys.readouterr().out
        assert f"ERROR {path}:" in out and message in out, out[-2000:]

        assert main(["rank", "--group", EDGE, "--extra", path]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert path in captured.err and message in captured.err, captured.err[-2000:]

        saved = _profile_for(name, tmp_path)
        with pytest.raises(profile.ProfileError) as refused:
            profile.load(saved.read_bytes(), KNOWLEDGE, name=str(saved))
        shown = [str(i) for i in refused.value.issues]
        assert any(_core(message) in s and str(saved) in s for s in shown), shown
        assert main(["rank", "--profile", str(saved)]) == 2
        err = capsys.readouterr().err
        assert str(saved) in err and _core(message) in err, err[-2000:]

        text = (HOSTILE / name).read_bytes().decode("utf-8")
        data = _link_data(json.dumps([{"name": name, "text": text}]).encode())
        with pytest.raises(profile.ProfileError) as refused:
            profile.from_link_params({"group": EDGE, "data": data}, kb_dir=KNOWLEDGE)
        shown = [str(i) for i in refused.value.issues]
        assert any(_core(message) in s and profile.LINK_NAME in s for s in shown), shown

        mime = "text/csv" if name.endswith(".csv") else "application/x-yaml"
        screen.file_uploader(key="my-data-upload").set_value((name, (HOSTILE / name).read_bytes(), mime)).run()
        assert not screen.exception, screen.exception
        assert screen.session_state["uploads"] == [], f"{name} must not be merged"
        assert screen.error, "the page says the file was refused"
        assert message in _page_text(screen)
    noisy = [w for w in caught if issubclass(w.category, RuntimeWarning) or "numpy" in str(w.filename)]
    assert not noisy, [f"{w.filename}:{w.lineno}: {w.message}" for w in noisy]
    assert _tree_hash(KNOWLEDGE) == KNOWLEDGE_BEFORE, "knowledge/ must never be written"


# ----------------------------------------------------------------------------------------------------------
# Paths that are not regular files: refused before they are opened, so nothing blocks or reads for ever


def _special(kind: str, tmp_path: Path) -> tuple[str, str]:
    if kind == "device":
        return "/dev/zero", "is a character device, not a regular file"
    if kind == "fifo":
        fifo = tmp_path / "pipe.yaml"
        os.mkfifo(fifo)
        return str(fifo), "is a named pipe (FIFO), not a regular file"
    if kind == "directory":
        return str(tmp_path), "is a directory, not a regular file"
    if kind == "missing":
        return str(tmp_path / "nope.yaml"), "it does not exist"
    raise AssertionError(kind)


@pytest.mark.subprocess
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX special files")
@pytest.mark.parametrize("kind", ["device", "fifo", "directory", "missing"])
@pytest.mark.parametrize(
    "command",
    [
        ["validate", "--extra", "{path}"],
        ["rank", "--group", EDGE, "--extra", "{path}"],
        ["rank", "--profile", "{path}"],
    ],
    ids=["validate-extra", "rank-extra", "rank-profile"],
)
def test_special_files_are_refused_at_once(kind: str, command: list[str], tmp_path: Path) -> None:
    path, fragment = _special(kind, tmp_path)
    args = [a.format(path=path) for a in command]
    start = time.monotonic()
    # A subprocess with a timeout: if a reader ever blocked on the pipe or read /dev/zero, the test fails, not hangs.
    done = subprocess.run(
        [sys.executable, "-m", "selector", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, (done.stdout[-1000:], done.stderr[-1000:])
    shown = done.stdout + done.stderr
    assert fragment in shown and path in shown, shown[-1000:]
    assert "Traceback" not in shown
    assert time.monotonic() - start < 60
