"""Tests for the ``score`` command (selector/commands/score.py): output formats and bad-input messages."""

from __future__ import annotations

import argparse
import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from selector.commands import score as score_cmd
from selector.decision import scoring
from selector.decision.problem import METHODS, SCALERS, Problem

ROOT = Path(__file__).resolve().parents[2]
MATRIX = "chip,perf,cost,ecosystem\nH200,10,5,9\nMI300X,9,3,6\n=cmd|' /C calc'!A0,12,8,4\n"


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    score_cmd.add_arguments(parser)
    return score_cmd.run(parser.parse_args(argv))


@pytest.fixture
def matrix_csv(tmp_path: Path) -> Path:
    path = tmp_path / "matrix.csv"
    path.write_text(MATRIX, encoding="utf-8")
    return path


def test_json_output_is_exactly_method_scaler_and_ranked_alternatives(matrix_csv, capsys):
    rc = _run([str(matrix_csv), "--objectives", "max,min,max", "--weights", "40,25,20", "--format", "json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["method", "scaler", "alternatives"]
    assert out["method"] == "topsis" and out["scaler"] == "vector"
    ref = scoring.score(
        Problem.of(
            [[10, 5, 9], [9, 3, 6], [12, 8, 4]],
            ["max", "min", "max"],
            [40, 25, 20],
            alternatives=["H200", "MI300X", "=cmd|' /C calc'!A0"],
        )
    )
    assert out["alternatives"] == ref.ranking()
    assert [set(a) for a in out["alternatives"]] == [{"name", "score", "rank"}] * 3
    assert [a["rank"] for a in out["alternatives"]] == sorted(a["rank"] for a in out["alternatives"])


@pytest.mark.parametrize(("method", "scaler"), [(m, s) for m, spec in METHODS.items() for s in spec.scalers])
def test_every_method_and_scaler_runs(matrix_csv, capsys, method, scaler):
    scales = ["--scales", "0:20,0:10,0:10"] if scaler == "value" else []
    args = [str(matrix_csv), "--objectives", "max,min,max", "--method", method, "--scaler", scaler]
    rc = _run([*args, "--format", "json", *scales])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["method"], out["scaler"]) == (method, scaler)


def test_the_value_model_takes_scales_and_refuses_a_value_outside_them(matrix_csv, capsys):
    args = [str(matrix_csv), "--objectives", "max,min,max", "--method", "mavt", "--format", "json"]
    assert _run([*args, "--scales", "0:20,0:10,0:10"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["method"], out["scaler"]) == ("mavt", "value")
    assert _run([*args, "--scales", "0:20,0:10"]) == 2
    assert "--scales has 2 scales" in capsys.readouterr().err
    assert _run([*args, "--scales", "0:20,0:4,0:10"]) == 2
    assert "outside the value scale [0, 4]" in capsys.readouterr().err
    assert _run([*args, "--scales", "0:20,0:10:log,0:10"]) == 2
    assert "above 0" in capsys.readouterr().err
    assert _run(args) == 2
    assert "fixed scale" in capsys.readouterr().err


def test_table_output_states_method_scaler_and_direction(matrix_csv, capsys):
    assert _run([str(matrix_csv), "--objectives", "max,min,max", "--method", "vikor"]) == 0
    text = capsys.readouterr().out
    assert "method vikor, scaler none" in text and "lower is better" in text
    assert text.count("\n") == 5  # header, column titles, three alternatives


def test_csv_output_neutralises_formula_cells(matrix_csv, capsys):
    assert _run([str(matrix_csv), "--objectives", "max,min,max", "--method", "wsm", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["rank", "alternative", "score", "method", "scaler"]
    names = [r[1] for r in rows[1:]]
    assert "'=cmd|' /C calc'!A0" in names
    assert not any(n.startswith(("=", "+", "-", "@")) for n in names)
    assert all(r[3:] == ["wsm", "sum"] for r in rows[1:])


def test_default_weights_are_equal(matrix_csv, capsys):
    _run([str(matrix_csv), "--objectives", "max,min,max", "--format", "json"])
    default = json.loads(capsys.readouterr().out)
    _run([str(matrix_csv), "--objectives", "max,min,max", "--weights", "1,1,1", "--format", "json"])
    assert json.loads(capsys.readouterr().out) == default


@pytest.mark.parametrize(
    ("content", "args", "expected"),
    [
        (MATRIX, ["--objectives", "max,min"], ["--objectives has 2 values", "3 criteria", "perf, cost, ecosystem"]),
        (MATRIX, ["--objectives", "max,min,max", "--weights", "1,2"], ["--weights has 2 values", "3 criteria"]),
        (MATRIX, ["--objectives", "max,min,high"], ["'high' for criterion 'ecosystem'", "'max'"]),
        (MATRIX, ["--objectives", "max,min,max", "--weights", "1,x,1"], ["'x' for criterion 'cost'"]),
        (MATRIX, ["--objectives", "max,min,max", "--weights", "1,-1,1"], ["weight 2 ('cost') is negative"]),
        ("a,b\nx,1\ny,fast\n", ["--objectives", "max"], ["row 3 ('y'), column 2 ('b')", "'fast', not a number"]),
        ("a,b\nx,1\ny,\n", ["--objectives", "max"], ["row 3 ('y'), column 2 ('b') is empty"]),
        ("a,b\nx,1\ny,nan\n", ["--objectives", "max"], ["row 3 ('y'), column 2 ('b') is 'nan'", "finite"]),
        ("a,b,c\nx,1,2\ny,3\n", ["--objectives", "max,max"], ["row 3 has 2 cells but the header has 3"]),
        ("a,b\nx,1\nx,2\n", ["--objectives", "max"], ["row 3 repeats alternative 'x'"]),
        ("", ["--objectives", "max"], ["the file is empty"]),
        ("a,b\n", ["--objectives", "max"], ["only a header row"]),
        ("a\nx\n", ["--objectives", "max"], ["no criterion columns"]),
        (MATRIX, ["--objectives", "max,min,max", "--method", "ahp"], ["unknown method 'ahp'", "topsis"]),
        (MATRIX, ["--objectives", "max,min,max", "--method", "wpm", "--scaler", "minmax"], ["does not allow"]),
        ("a,b\nx,1\ny,0\n", ["--objectives", "min", "--method", "wsm"], ["alternative 'y', criterion 'b'", "> 0"]),
    ],
)
def test_bad_input_exits_2_naming_file_place_and_fix(tmp_path, capsys, content, args, expected):
    path = tmp_path / "bad.csv"
    path.write_text(content, encoding="utf-8")
    assert _run([str(path), *args]) == score_cmd.EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert str(path) in captured.err or "--" in captured.err
    for fragment in expected:
        assert fragment in captured.err


def test_missing_file(tmp_path, capsys):
    assert _run([str(tmp_path / "nope.csv"), "--objectives", "max"]) == 2
    assert "nope.csv: file not found" in capsys.readouterr().err


def test_bom_and_blank_lines_are_tolerated(tmp_path, capsys):
    path = tmp_path / "bom.csv"
    path.write_text("\ufeffchip,perf\n\nA,1\nB,2\n\n", encoding="utf-8")
    assert _run([str(path), "--objectives", "max", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["alternatives"][0]["name"] == "B"


def test_help_lists_match_scoring():
    assert tuple(METHODS) == score_cmd.METHOD_NAMES
    assert score_cmd.SCALER_NAMES == SCALERS


def test_command_module_interface():
    assert score_cmd.NAME == "score" and score_cmd.HELP
    assert callable(score_cmd.add_arguments) and callable(score_cmd.run)


@pytest.mark.subprocess
@pytest.mark.skipif(
    not (ROOT / "selector" / "__main__.py").exists(), reason="the lead's selector/__main__.py is absent"
)
def test_through_python_m_selector(matrix_csv):
    ok = subprocess.run(
        [sys.executable, "-m", "selector", "score", str(matrix_csv), "--objectives", "max,min,max", "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["method"] == "topsis"
    bad = subprocess.run(
        [sys.executable, "-m", "selector", "score", str(matrix_csv), "--objectives", "max"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2
    assert "--objectives has 1 values" in bad.stderr


def test_table_escapes_control_characters_in_names(tmp_path: Path, capsys) -> None:
    path = tmp_path / "escapes.csv"
    path.write_text('chip,perf\n"Evil \x1b]0;pwned\x07",10\n"Fake\r\n   1  Forged",3\n', encoding="utf-8")
    assert _run([str(path), "--objectives", "max", "--weights", "1", "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    assert "Evil \\e]0;pwned\\x07" in out
    assert len(out.strip().split("\n")) == 4, "a line break in a name cannot add a row"
