"""The in-process audit command on small hand-written datasets in every input format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from faithqa_spark import audit
from faithqa_spark.core import fields as C
from tests.test_core_audit import make_row

from helpers import export_file

CTX_A = "Frédéric Quillard wrote the suite in Lodz. Quillard's pupil said he loved it."
CTX_B = "The (C++) guild met in 1907 at Brannick; four members came."


def dataset_rows() -> list[dict[str, Any]]:
    rows = [
        make_row(CTX_A, "Frédéric Quillard", "Ana Ruiz", question="Who wrote the suite?"),
        make_row(CTX_A, "Lodz", "Kraków", "GPE", question="Where was it written?"),
        make_row(CTX_B, "1907", "about 30,000", "DATE", question="When did the guild meet?"),
        make_row(CTX_B, "four", "1,250", "CARDINAL", question="How many came?"),
        make_row(CTX_B, "Brannick", "Ostrava Nova", "GPE", question="Where did it meet?"),
    ]
    for i, r in enumerate(rows):
        r[C.ID] = f"squad-{i}"
        r[C.SOURCE] = "squad" if i < 3 else "triviaqa"
    return rows


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def run(args: list[str], capsys) -> tuple[int, str, str]:
    rc = audit.main(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_all_formats_give_the_same_audit(tmp_path: Path, capsys) -> None:
    rows = dataset_rows()
    jl = write_jsonl(tmp_path / "d.jsonl", rows)
    js = tmp_path / "d.json"
    js.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "d.parquet")
    reports = []
    for f in (jl, js, tmp_path / "d.parquet"):
        rc, out, err = run([str(f), "--output", str(tmp_path / f.suffix[1:])], capsys)
        assert rc == 0, err
        assert "name_part_leak" in out
        rep = json.loads((tmp_path / f.suffix[1:] / "audit" / "report.json").read_text())
        reports.append({k: v for k, v in rep.items() if k != "inputs"})
    assert reports[0] == reports[1] == reports[2]
    flags = reports[0]["total"]["flags"]
    assert flags["name_part_leak"] == {"applies": 1, "fails": 1, "not_measurable": 4, "rate": 1.0}
    assert flags["date_shape"]["fails"] == 1 and flags["cardinal_shape"]["fails"] == 1
    assert flags["answer_offsets"] == {"applies": 5, "fails": 0, "not_measurable": 0, "rate": 0.0}
    assert set(reports[0]["sources"]) == {"squad", "triviaqa"}
    sample = (tmp_path / "jsonl" / "audit" / "sample.jsonl").read_text().splitlines()
    assert len(sample) == 5 and all(C.AUDIT in json.loads(s) for s in sample)
    page = (tmp_path / "jsonl" / "audit" / "sample.html").read_text()
    assert page.count('class="row"') == 5 and '<mark class="repl">Ana Ruiz</mark>' in page
    assert '<mark class="orig">Frédéric Quillard</mark>' in page


def test_paper_format_is_not_measurable_and_sample_is_seeded(tmp_path: Path, capsys) -> None:
    rows = [{k: v for k, v in r.items() if k not in (C.ANSWER_STARTS, C.MODIFIED_SPANS, C.ID)}
            for r in dataset_rows()]
    f = write_jsonl(tmp_path / "paper.jsonl", rows)
    rc, _, err = run([str(f), "--output", str(tmp_path / "o"), "--sample-size", "2"], capsys)
    assert rc == 0, err
    rep = json.loads((tmp_path / "o" / "audit" / "report.json").read_text())
    assert rep["total"]["flags"]["answer_offsets"] == {
        "applies": 0, "fails": 0, "not_measurable": 5, "rate": None}
    ids = [json.loads(s)[C.ID] for s in (tmp_path / "o" / "audit" / "sample.jsonl").read_text().splitlines()]
    assert len(ids) == 2 and all(i.startswith("paper.jsonl:line=") for i in ids)
    # the same rows in another order give the same sample
    write_jsonl(f, list(reversed(rows)))
    run([str(f), "--output", str(tmp_path / "o2"), "--sample-size", "2"], capsys)
    ids2 = [json.loads(s)[C.ID] for s in (tmp_path / "o2" / "audit" / "sample.jsonl").read_text().splitlines()]
    assert {i.split("=")[1] for i in ids} != set() and len(ids2) == 2


def test_our_output_directory(tmp_path: Path, capsys) -> None:
    rows = dataset_rows()
    (tmp_path / "out" / "jsonl").mkdir(parents=True)
    write_jsonl(tmp_path / "out" / export_file("jsonl", "train"), rows[:3])
    write_jsonl(tmp_path / "out" / export_file("jsonl", "dev"), rows[3:])
    # no manifest.json: a run that was killed (or is still going) is not read
    rc, _, err = run([str(tmp_path / "out"), "--output", str(tmp_path / "a")], capsys)
    assert rc == 2 and "an incomplete run (no manifest.json" in err
    (tmp_path / "out" / "manifest.json").write_text("{}")
    rc, _, err = run([str(tmp_path / "out"), "--output", str(tmp_path / "out")], capsys)
    assert rc == 0, err
    rep = json.loads((tmp_path / "out" / "audit" / "report.json").read_text())
    assert rep["total"]["rows"] == 5 and len(rep["inputs"]) == 2


@pytest.mark.parametrize("content, message", [
    ('{"original_context": "x", "modified_context": "y"}\n[1, 2]\n', "line=2: invalid_json: line 2 is a JSON list"),
    ('{"original_context": "x"}\n{"original_context": 5}\n', "line=2: field 'original_context' is number"),
    ('{"original_context": "x", "answer_starts": ["a"]}\n', "line=1: field 'answer_starts' must be"),
    ('{"original_context": "x", "modified_spans": [{"start": 3}]}\n', "line=1: field 'modified_spans' must be"),
    ('{"question": "q"}\n', "line=1: none of the fields"),
    ('{"original_context": "x"\n', "line=1: invalid_json"),
])
def test_bad_records_one_line_error(tmp_path: Path, capsys, content: str, message: str) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text(content, encoding="utf-8")
    rc, _, err = run([str(f), "--output", str(tmp_path / "o")], capsys)
    assert rc == 2
    assert err.count("\n") == 1 and str(f) in err and message in err, err


def test_bad_files(tmp_path: Path, capsys) -> None:
    rc, _, err = run([str(tmp_path / "nope.jsonl"), "--output", str(tmp_path)], capsys)
    assert rc == 2 and "no such file" in err
    (tmp_path / "a.txt").write_text("x")
    rc, _, err = run([str(tmp_path / "a.txt"), "--output", str(tmp_path)], capsys)
    assert rc == 2 and "unsupported file type" in err
    (tmp_path / "l.json").write_text('{"a": 1}')
    (tmp_path / "p.parquet").write_bytes(b"not parquet")
    rc, _, err = run([str(tmp_path / "p.parquet"), "--output", str(tmp_path)], capsys)
    assert rc == 2 and "p.parquet" in err and "Parquet" in err
    (tmp_path / "obj.json").write_text('  {"a": 1, ')
    rc, _, err = run([str(tmp_path / "obj.json"), "--output", str(tmp_path)], capsys)
    assert rc == 2 and "obj.json" in err


def test_spark_audit_equals_in_process(tmp_path: Path, spark, capsys) -> None:
    """The Spark audit writes the same bytes as the in-process one (two files, two formats,
    a sample smaller than the data)."""
    from faithqa_spark.audit_spark import run_audit_spark

    rows = dataset_rows()
    more = [dict(r, **{C.ID: r[C.ID] + "-b"}) for r in rows]
    write_jsonl(tmp_path / "a.jsonl", rows)
    pq.write_table(pa.Table.from_pylist(more), tmp_path / "b.parquet")
    args = [str(tmp_path / "a.jsonl"), str(tmp_path / "b.parquet"), "--sample-size", "6"]
    assert audit.main(args + ["--output", str(tmp_path / "local")]) == 0
    run_audit_spark(spark, audit.parse_args(args + ["--output", str(tmp_path / "spark")], "t"))
    for name in ("report.json", "sample.jsonl", "sample.html"):
        assert (tmp_path / "local" / "audit" / name).read_bytes() == (
            tmp_path / "spark" / "audit" / name).read_bytes(), name
    capsys.readouterr()


def test_spark_audit_bad_record(tmp_path: Path, spark) -> None:
    from faithqa_spark.audit_spark import run_audit_spark

    f = tmp_path / "bad.jsonl"
    f.write_text('{"original_context": "x"}\n{"original_context": 5}\n', encoding="utf-8")
    run = audit.parse_args([str(f), "--output", str(tmp_path / "o")], "t")
    with pytest.raises(Exception, match=r"bad.jsonl: line=2: field 'original_context' is number"):
        run_audit_spark(spark, run)
