"""Reading predictions and evaluation records (JSONL or Parquet, from bytes, so the in-process
evaluator and the Spark tasks parse a file the same way), and finding a dataset's files."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any, Iterator

from faithqa_spark import errors
from faithqa_spark.core import evaluation as E
from faithqa_spark.core import fields as C
from faithqa_spark.core.exports import FILE_EXPORTS
from faithqa_spark.core.training_exports import SFT, data_files_pattern
from faithqa_spark.runs import IncompleteRunError, require_complete

JSONL, PARQUET = "jsonl", "parquet"
# export file names that are not our split names (the Hub's, in sft/ and dpo/)
_SPLIT_ALIASES = {hub: ours for ours, hub in C.HUB_SPLITS.items() if hub != ours}
_SHARD = re.compile(r"(\w+)-\d{5}-of-\d{5}")  # a shard's name without .jsonl


class EvalInputError(errors.FaithqaError, ValueError):
    """Bad evaluator input: a one-line message naming the file (and line), exit status 2."""

    exit_status = errors.USAGE


def file_format(path: str | Path) -> str:
    """JSONL (`.jsonl`) or Parquet (`.parquet`, or a directory of them); anything else is an
    error before any work."""
    p = Path(path)
    if not p.exists():
        raise EvalInputError(f"{path}: no such file or directory")
    if p.is_dir():
        if any(p.glob("*.parquet")):
            return PARQUET
        raise EvalInputError(f"{path}: a directory with no .parquet file")
    if p.suffix == ".jsonl":
        return JSONL
    if p.suffix == ".parquet":
        return PARQUET
    raise EvalInputError(f"{path}: not a JSONL or Parquet file (expected .jsonl or .parquet)")


def expand(paths: list[str]) -> list[str]:
    """Files in the order they are read: each path as given, a Parquet directory as its
    sorted part files. The position of a file in this list orders duplicate predictions."""
    out: list[str] = []
    for p in paths:
        if file_format(p) == PARQUET and Path(p).is_dir():
            out += [str(q) for q in sorted(Path(p).glob("*.parquet"))]
        else:
            out.append(p)
    return out


def records(data: bytes, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(location, record) for every record of one file's bytes: `line N` (JSONL, blank lines
    skipped) or `row N` (Parquet, from 1). A malformed line stops with its file and line."""
    if path.endswith(".parquet"):
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(io.BytesIO(data))
        except Exception as e:  # noqa: BLE001 - pyarrow raises several types for bad files
            raise EvalInputError(f"{path}: not a readable Parquet file: {e}") from None
        for i, rec in enumerate(table.to_pylist(), start=1):
            yield f"row {i}", rec
        return
    for i, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw.decode("utf-8-sig" if i == 1 else "utf-8"))
        except UnicodeDecodeError:
            raise EvalInputError(f"{path}: line {i}: not UTF-8 text") from None
        except json.JSONDecodeError as e:
            raise EvalInputError(f"{path}: line {i}: invalid JSON: {e.msg}") from None
        if not isinstance(rec, dict):
            raise EvalInputError(f"{path}: line {i}: not a JSON object")
        yield f"line {i}", rec


def prediction_of(rec: dict[str, Any], path: str, where: str) -> tuple[str, str]:
    """(id, prediction) of a prediction record; a null prediction reads as empty."""
    pid, text = rec.get(C.ID), rec.get(C.PREDICTION, ...)
    if not isinstance(pid, str) or not pid:
        raise EvalInputError(f"{path}: {where}: 'id' must be a non-empty string")
    if text is ...:
        raise EvalInputError(f"{path}: {where}: no 'prediction' field (id {pid})")
    if text is not None and not isinstance(text, str):
        raise EvalInputError(f"{path}: {where}: 'prediction' must be a string (id {pid})")
    return pid, text or ""


def predictions(data: bytes, path: str) -> Iterator[tuple[str, str, int]]:
    """(id, prediction, position in the file) of each record of a predictions file."""
    for pos, (where, rec) in enumerate(records(data, path)):
        pid, text = prediction_of(rec, path, where)
        yield pid, text, pos


def split_hint(path: str) -> str | None:
    """The split a dataset/export file holds by its name: a shard
    (jsonl/validation-00000-of-00001.jsonl, sft/train-00000-of-00002.jsonl: `core.shards`),
    or an older layout's jsonl/dev.jsonl, parquet/dev/x."""
    p = Path(path)
    shard = _SHARD.fullmatch(p.stem)
    for name in (shard.group(1) if shard else p.stem, p.parent.name):
        name = _SPLIT_ALIASES.get(name, name)
        if name in C.SPLITS:
            return name
    return None


def eval_rows(data: bytes, path: str, controls_only: bool = False
              ) -> Iterator[dict[str, Any]]:
    """Evaluation rows (C.EVAL_FIELDS) of one dataset or records file. `controls_only` keeps
    the factual and abstention records of a training export (its counterfactual records
    repeat the dataset's rows)."""
    hint = split_hint(path)
    for where, rec in records(data, path):
        if controls_only and rec.get(C.KIND) in (None, C.COUNTERFACTUAL):
            continue
        try:
            yield E.eval_row(rec, hint)
        except E.RecordError as e:
            raise EvalInputError(f"{path}: {where}: {e}") from None


def dataset_files(dataset_dir: str | None) -> tuple[list[str], list[str]]:
    """(dataset files, control files) of one of our output directories, a complete run's
    (`runs.require_complete`): the JSONL export's shards, else the Parquet export's; the
    controls of the training export `sft/` (its shards, `core.training_exports.shard_path`)
    when present."""
    if dataset_dir is None:
        return [], []
    d = Path(dataset_dir)
    if not d.is_dir():
        raise EvalInputError(f"--dataset: not a directory: {dataset_dir}")
    try:
        require_complete(str(d))
    except IncompleteRunError as e:
        raise EvalInputError(f"--dataset: {e}") from None
    data: list[str] = []
    for fmt in ("jsonl", "parquet"):
        export = next(e for e in FILE_EXPORTS if e.format == fmt)
        data = sorted(str(p) for split in C.SPLITS for p in d.glob(export.pattern(split)))
        if data:
            break
    if not data:
        raise EvalInputError(f"--dataset: {dataset_dir}: no jsonl/ or parquet/ export")
    return data, sorted(str(p) for split in C.SPLITS
                        for p in d.glob(data_files_pattern(SFT, split)))
