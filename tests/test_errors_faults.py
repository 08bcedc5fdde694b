"""The error spine (one line and an exit status for every user-facing failure, also from a
worker's exception text), the fault hook, and the packaged default config."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from faithqa_spark import errors, faults
from faithqa_spark.config import DEFAULT_CONFIG, load_config
from faithqa_spark.sources import InputFileError

WORKER_TEXT = (
    "An error occurred while calling o123.count.\n"
    ": org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 failed\n"
    "org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n"
    '  File "/x/sources/formats.py", line 68, in read_file\n'
    "faithqa_spark.sources.common.InputFileError: in.json: invalid JSON at line 3 column 1\n"
    "\tat org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException\n")


def test_each_error_has_its_exit_status():
    assert errors.ConfigError("x").exit_status == errors.USAGE == 2
    assert errors.InputError("x").exit_status == 2
    assert errors.ModelNotFoundError("x").exit_status == 2
    assert errors.ReconciliationError("x").exit_status == errors.FAILED == 1
    assert isinstance(InputFileError("p", None, "m"), errors.FaithqaError)


def test_worker_error_text_is_unwrapped_into_one_line():
    err = errors.user_error(RuntimeError(WORKER_TEXT))
    assert isinstance(err, errors.InputFileError)
    assert str(err) == "in.json: invalid JSON at line 3 column 1"
    out = io.StringIO()
    assert errors.report(RuntimeError(WORKER_TEXT), out) == 1
    assert out.getvalue() == "error: in.json: invalid JSON at line 3 column 1\n"


def test_reconciliation_error_is_one_line_and_a_bug_keeps_its_traceback():
    out = io.StringIO()
    assert errors.report(errors.ReconciliationError("rows lost: a.json"), out) == 1
    assert out.getvalue() == "error: rows lost: a.json\n"
    with pytest.raises(ZeroDivisionError):
        errors.report(ZeroDivisionError("bug"), out)
    assert errors.user_error(RuntimeError("Py4JJavaError: nothing of ours")) is None


def test_model_missing_on_a_worker_is_a_failed_run():
    err = errors.user_error(RuntimeError("x\nfaithqa_spark.errors.ModelNotFoundError: gone\n"))
    assert isinstance(err, errors.ModelNotFoundError) and err.exit_status == 1


def test_fault_hook_fires_only_for_its_point(tmp_path, monkeypatch):
    monkeypatch.delenv(faults.ENV, raising=False)
    faults.fire("ner")  # nothing armed: nothing happens
    assert not faults.armed("write")
    with pytest.raises(ValueError):
        faults.armed("no-such-point")
    assert faults.armed("write", "write:/tmp/m") and not faults.armed("ner", "write")
    with pytest.raises(faults.InjectedFault):
        faults.fire("delta-write", "delta-write")
    marker = tmp_path / "once"
    with pytest.raises(faults.InjectedFault):
        faults.fire("delta-write", f"delta-write:{marker}")
    faults.fire("delta-write", f"delta-write:{marker}")  # the marker exists: not again


def test_fault_hook_runs_once_per_task_before_its_first_batch():
    calls: list[str] = []
    task = faults.on_first_batch("delta-write", faults.passthrough, "delta-write")
    assert list(task(iter([]))) == []  # no rows: never fires
    with pytest.raises(faults.InjectedFault):
        list(task(iter([1, 2])))
    quiet = faults.on_first_batch("ner", lambda b: (calls.append("x") or x for x in b), "")
    assert list(quiet(iter([1, 2, 3]))) == [1, 2, 3]


def test_default_config_is_package_data_and_extends_names_it(tmp_path):
    assert DEFAULT_CONFIG.name == "defaults.toml"
    assert DEFAULT_CONFIG.parent.name == "faithqa_spark"
    repo_conf = Path(__file__).resolve().parents[1] / "conf"
    for user_file in sorted(repo_conf.glob("*.toml")):
        assert load_config(user_file).pipeline.seed == 42, user_file
    p = tmp_path / "mine.toml"
    p.write_text('extends = "default.toml"\n[ner]\nbatch_size = 7\n')
    assert load_config(p).ner.batch_size == 7
    (tmp_path / "default.toml").write_text('extends = "%s"\n[ner]\nbatch_size = 9\n'
                                           % DEFAULT_CONFIG)
    assert load_config(p).ner.batch_size == 7 and load_config(tmp_path / "default.toml"
                                                              ).ner.batch_size == 9
    os.remove(tmp_path / "default.toml")
