"""What the user sees when something is wrong: one clear line, the right exit status, and
no output written."""

from __future__ import annotations

import json

import pytest

from faithqa_spark.spark.main import main

from helpers import REJECTED_FILE, SAMPLE_SQUAD, spark_submit


def run_main(argv, capsys):
    rc = main(argv)
    return rc, capsys.readouterr().err


def test_missing_input_path(tmp_path, capsys):
    rc, err = run_main(["--squad", str(tmp_path / "nope.json"), "--output", str(tmp_path / "o")],
                       capsys)
    assert rc == 2 and "input path does not exist" in err and "nope.json" in err
    assert not (tmp_path / "o").exists()


def test_unknown_config_key(tmp_path, capsys):
    rc, err = run_main(["--squad", str(SAMPLE_SQUAD), "--set", "quality.max_occurrence=3",
                        "--output", str(tmp_path / "o")], capsys)
    assert rc == 2 and "unknown key 'quality.max_occurrence'" in err


def test_wrong_config_type(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "default.toml"\n[sampling]\nmax_attempts = "many"\n')
    rc, err = run_main(["--config", str(bad), "--squad", str(SAMPLE_SQUAD)], capsys)
    assert rc == 2 and "'sampling.max_attempts' must be an integer" in err and "bad.toml" in err


def test_model_not_installed_says_how_to_install(tmp_path, capsys):
    rc, err = run_main(["--squad", str(SAMPLE_SQUAD), "--set", 'ner.model="en_core_web_lg"',
                        "--output", str(tmp_path / "o")], capsys)
    assert rc == 2
    assert "spaCy model 'en_core_web_lg' is not installed" in err
    assert "python -m spacy download en_core_web_lg" in err


def test_unsupported_file_type(tmp_path, capsys):
    f = tmp_path / "data.csv"
    f.write_text("a,b\n")
    rc, err = run_main(["--squad", str(f)], capsys)
    assert rc == 2 and "unsupported file type '.csv'" in err


@pytest.mark.slow
def test_unparseable_file_stops_the_job_naming_file_and_position(tmp_path):
    good = SAMPLE_SQUAD.read_bytes()
    cut = tmp_path / "truncated.json"
    cut.write_bytes(good[: len(good) // 2])
    out = tmp_path / "out"
    proc = spark_submit("local[2]", ["--squad", str(SAMPLE_SQUAD), "--squad", str(cut),
                                     "--output", str(out)])
    assert proc.returncode == 1, proc.stdout[-2000:]
    lines = [l for l in (proc.stdout + proc.stderr).splitlines() if l.startswith("error: ")]
    assert len(lines) == 1, lines
    assert str(cut) in lines[0] and "invalid JSON at line" in lines[0] and "byte" in lines[0]
    assert not out.exists()  # nothing was written


@pytest.mark.slow
def test_bad_records_are_rejected_and_the_rest_processed(tmp_path):
    lines = [json.dumps({"id": "h1", "title": "T", "context": "Anna Velt founded the Grenwick "
                         "festival in 1952 to pay for a lifeboat for the town.",
                         "question": "Who founded it?",
                         "answers": {"text": ["Anna Velt"], "answer_start": [0]}}),
             "{not json",
             json.dumps({"id": "h3", "title": "T", "context": "  ", "question": "Q?",
                         "answers": {"text": ["x"], "answer_start": [0]}})]
    f = tmp_path / "part.jsonl"
    f.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    proc = spark_submit("local[2]", ["--squad", str(f), "--output", str(out)])
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((out / "report.json").read_text())
    per_file = report["sources"]["squad"]["files"][str(f)]
    assert per_file["input_records"] == 3 and per_file["rejected"] == 2
    rejected = [json.loads(l) for l in (out / REJECTED_FILE).open()]
    assert {(r["record_loc"], r["reason"]) for r in rejected} == {
        ("line=2", "invalid_json"), ("line=3", "empty_field")}
    assert all(r["input_file"] == str(f) for r in rejected)


def test_bad_bank_directory_is_reported_before_any_work(tmp_path, capsys):
    rc, err = run_main(["--squad", str(SAMPLE_SQUAD), "--bank", str(tmp_path / "no-bank"),
                        "--output", str(tmp_path / "o")], capsys)
    assert rc == 2 and "entity bank directory not found" in err
    assert not (tmp_path / "o").exists()


def test_bank_uri_of_an_unknown_filesystem_is_one_line_naming_it(tmp_path, capsys):
    rc, err = run_main(["--squad", str(SAMPLE_SQUAD), "--bank", "nofs://store/bank",
                        "--output", str(tmp_path / "o")], capsys)
    assert rc == 2 and err.count("\n") == 1
    assert "--bank nofs://store/bank: cannot be read: unsupported filesystem nofs://" in err
    assert not (tmp_path / "o").exists()
