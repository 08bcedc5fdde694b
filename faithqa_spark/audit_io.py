"""Inputs and outputs of the audit command (in-process and Spark): which files a path
means, one dataset record -> a checked row, and the files the audit writes.

Any dataset in the paper's field names can be audited: JSON Lines, a JSON list, Parquet (a
file or a directory of part files), or one of our output directories (its `jsonl/*.jsonl`,
else its `parquet/`). Fields that are absent make their flags not measurable; fields of the
wrong type, records that are not objects and unreadable files stop the audit with a
one-line error naming the file, the record and the problem.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from faithqa_spark import errors
from faithqa_spark.core import fields as C
from faithqa_spark.core.audit_summary import audit_table
from faithqa_spark.outdir import OutDir, as_outdir
from faithqa_spark.report.audit_sheet import render_audit_sheet
from faithqa_spark.runs import IncompleteRunError, is_run_dir, require_complete
from faithqa_spark.sources.common import InputFileError, type_name
from faithqa_spark.sources.containers import jsonl_records, load_json_document, parquet_records

JSONL, JSON_LIST, PARQUET = "jsonl", "json", "parquet"
TEXT_FIELDS = [C.ID, C.QUESTION, C.ORIGINAL_CONTEXT, C.MODIFIED_CONTEXT, C.ORIGINAL_ANSWER,
               C.FAITHFUL_ANSWER, C.ORIGINAL_ENTITY, C.REPLACEMENT_ENTITY, C.ENTITY_TYPE,
               C.SOURCE, C.SPLIT, C.MATCH_STRATEGY]
# the fields a record needs at least one of to be a counterfactual dataset record at all
CORE_FIELDS = (C.ORIGINAL_CONTEXT, C.MODIFIED_CONTEXT, C.ORIGINAL_ENTITY, C.REPLACEMENT_ENTITY)
KEPT = [name for name, _ in C.DATASET_FIELDS]  # what a sample row keeps, in dataset order


class AuditInputError(errors.FaithqaError, ValueError):
    """A file or record cannot be audited: "<file>: <record>: <problem>"."""

    exit_status = errors.USAGE


@dataclass(frozen=True)
class AuditInput:
    path: str  # a file, or a directory of Parquet part files
    kind: str  # JSONL, JSON_LIST or PARQUET


def _kind_of_file(p: Path) -> str | None:
    name = p.name.lower()
    if name.endswith(".jsonl"):
        return JSONL
    if name.endswith(".json"):
        return JSON_LIST
    if name.endswith(".parquet"):
        return PARQUET
    return None


def resolve_inputs(paths: list[str]) -> list[AuditInput]:
    """The files that the given paths mean, in the given order (a directory's files sorted)."""
    out: list[AuditInput] = []
    for raw in paths:
        p = Path(raw)
        if p.is_file():
            kind = _kind_of_file(p)
            if kind is None:
                raise AuditInputError(f"{raw}: unsupported file type (expected .jsonl, .json or .parquet)")
            out.append(AuditInput(str(p), kind))
        elif p.is_dir():
            out.extend(_dir_inputs(p))
        else:
            raise AuditInputError(f"{raw}: no such file or directory")
    return out


def _dir_inputs(d: Path) -> list[AuditInput]:
    if is_run_dir(str(d)):  # one of our output directories: only a complete run is read
        try:
            require_complete(str(d))
        except IncompleteRunError as e:
            raise AuditInputError(str(e)) from None
    if sorted((d / "jsonl").glob("*.jsonl")):  # its shards, in name order
        return [AuditInput(str(f), JSONL) for f in sorted((d / "jsonl").glob("*.jsonl"))]
    if (d / "parquet").is_dir():
        d = d / "parquet"
    files = sorted(f for f in d.rglob("*") if f.is_file() and _kind_of_file(f)
                   and not f.name.startswith((".", "_")))
    if not files:
        raise AuditInputError(f"{d}: no .jsonl, .json or .parquet files in this directory")
    return [AuditInput(str(f), _kind_of_file(f) or JSONL) for f in files]


def iter_records(data: bytes, inp: AuditInput) -> Iterator[tuple[str, Any]]:
    """(record location, raw object) of one file's content; raises AuditInputError for an
    unreadable file or record."""
    try:
        if inp.kind == PARQUET:
            records = parquet_records(data, inp.path)
        elif inp.kind == JSON_LIST and not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
            doc = load_json_document(data, inp.path)
            if not isinstance(doc, list):
                raise AuditInputError(f"{inp.path}: a JSON {type_name(doc)}, expected a list of records")
            records = ((f"item={i}", obj, None) for i, obj in enumerate(doc))
        else:  # .jsonl, and a .json that holds JSON Lines (Hugging Face's to_json writes those)
            records = jsonl_records(data, inp.path)
        for loc, obj, outcome in records:
            if outcome is not None:
                raise AuditInputError(f"{inp.path}: {loc}: {outcome.reason}: {outcome.detail}")
            yield loc, obj
    except InputFileError as err:
        raise AuditInputError(str(err)) from None


def check_record(obj: Any, path: str, loc: str) -> dict[str, Any]:
    """A raw record -> the row the flags read (the dataset fields it has, in dataset order).

    A record without an `id` gets "<file name>:<location>". Raises AuditInputError naming
    the file, the record and the problem for a record of the wrong shape.
    """
    def bad(problem: str) -> AuditInputError:
        return AuditInputError(f"{path}: {loc}: {problem}")

    if not isinstance(obj, dict):
        raise bad(f"a JSON {type_name(obj)}, expected an object")
    if not any(obj.get(k) is not None for k in CORE_FIELDS):
        raise bad("none of the fields " + ", ".join(CORE_FIELDS) + ": not a counterfactual dataset record")
    for k in TEXT_FIELDS:
        if obj.get(k) is not None and not isinstance(obj[k], str):
            raise bad(f"field '{k}' is {type_name(obj[k])}, expected a string")
    starts = obj.get(C.ANSWER_STARTS)
    if starts is not None and not (isinstance(starts, list) and all(
            isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in starts)):
        raise bad(f"field '{C.ANSWER_STARTS}' must be a list of non-negative integers")
    spans = obj.get(C.MODIFIED_SPANS)
    if spans is not None and not (isinstance(spans, list) and all(_is_span(s) for s in spans)):
        raise bad(f"field '{C.MODIFIED_SPANS}' must be a list of {{start, end}} objects")
    row = {k: obj[k] for k in KEPT if k in obj}
    if not isinstance(row.get(C.ID), str):
        row = {C.ID: f"{Path(path).name}:{loc}", **{k: v for k, v in row.items() if k != C.ID}}
    if spans is not None:
        row[C.MODIFIED_SPANS] = [{C.SPAN_START: s[C.SPAN_START], C.SPAN_END: s[C.SPAN_END]}
                                 for s in spans]
    return row


def _is_span(s: Any) -> bool:
    return (isinstance(s, dict) and all(isinstance(s.get(k), int) and not isinstance(s.get(k), bool)
                                        for k in (C.SPAN_START, C.SPAN_END))
            and 0 <= s[C.SPAN_START] <= s[C.SPAN_END])


def read_bytes(inp: AuditInput) -> list[tuple[str, bytes]]:
    """(file path, content) of an input: one file, or each part file of a Parquet directory."""
    p = Path(inp.path)
    files = [p] if p.is_file() else sorted(f for f in p.rglob("*.parquet") if f.is_file())
    return [(str(f), f.read_bytes()) for f in files]


def sample_line(row: Mapping[str, Any], audit: Mapping[str, bool | None]) -> str:
    """One line of sample.jsonl: the row's fields and its audit struct."""
    return json.dumps({**row, C.AUDIT: dict(audit)}, ensure_ascii=False)


def dataset_sample_line(row: Mapping[str, Any]) -> str:
    """The sample.jsonl line of a dataset row of a run (it carries its own `audit`)."""
    return sample_line(row, row.get(C.AUDIT) or {})


def write_audit_sample(out_dir: OutDir | str | Path, sample_lines: list[str],
                       title: str) -> None:
    """Write DIR/audit/sample.jsonl and DIR/audit/sample.html (the rows for review)."""
    out = as_outdir(out_dir)
    out.write_lines("audit/sample.jsonl", sample_lines)
    rows = [json.loads(line) for line in sample_lines]
    out.write_text("audit/sample.html", render_audit_sheet(rows, title=title))


def write_audit_outputs(out_dir: OutDir | str | Path, report: dict[str, Any],
                        sample_lines: list[str], title: str) -> str:
    """Write DIR/audit/report.json, sample.jsonl and sample.html; return the printed table."""
    as_outdir(out_dir).write_json("audit/report.json", report)
    write_audit_sample(out_dir, sample_lines, title)
    parts = []
    for name, section in [*report["sources"].items(), ("total", report["total"])]:
        parts.append(f"== {name}: {section['rows']} rows ==\n" + audit_table(section))
    return "\n\n".join(parts)
