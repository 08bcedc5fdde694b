"""The HTML analysis report: rendered from a hand-made report.json, every chart present."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from faithqa_spark.core import analysis as A
from faithqa_spark.core import fields as C
from faithqa_spark.report.index import write_report
from faithqa_spark.report.__main__ import main as report_main
from faithqa_spark.report.charts import audit_groups
from faithqa_spark.report.index import CHARTS, headline_table

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _ds(source: str, ctx: int, orig: str, rep: str, n: int) -> dict[str, Any]:
    return {C.SOURCE: source, C.ORIGINAL_CONTEXT: "c" * ctx, C.ORIGINAL_ENTITY: orig,
            C.REPLACEMENT_ENTITY: rep, C.NUM_REPLACEMENTS: n}


def hand_report(with_analysis: bool = True, with_audit: bool = True) -> dict[str, Any]:
    """A report.json as the runners write it, for two sources of invented rows."""
    def source(inp, ok, filt, rej, reasons, splits, types, strategies):
        return {"input_records": inp, "success": ok, "filtered": filt, "rejected": rej,
                "success_rate": round(ok / inp, 6), "filtered_by_reason": reasons,
                "rejected_by_reason": {"empty_field": rej}, "splits": splits,
                "entity_types": types, "match_strategies": strategies,
                "files": {f"in/{inp}.json": {"input_records": inp, "success": ok,
                                             "filtered": filt, "rejected": rej}}}
    report: dict[str, Any] = {
        "pipeline_version": "faithqa-spark/0.1.0", "config_hash": "0123456789abcdef",
        "ner_model": "en_test_ruler-0.0.1",
        "bank": {"origin": "built from squad contexts", "total": 60,
                 "counts": {"PERSON": 20, "GPE": 15, "ORG": 10, "DATE": 8, "CARDINAL": 4,
                            "NORP": 2, "LOC": 1, "EVENT": 0}},
        "sources": {
            "triviaqa": source(10, 4, 5, 1, {"no_entity_match": 3, "no_evidence_context": 2},
                               {"train": 3, "dev": 0, "test": 1}, {"PERSON": 3, "LOC": 1},
                               {"exact": 4}),
            "squad": source(20, 10, 9, 1, {"no_entity_match": 6, "no_replacement": 2,
                                           "answer_too_short": 1},
                            {"train": 8, "dev": 1, "test": 1},
                            {"GPE": 5, "PERSON": 3, "DATE": 2},
                            {"exact": 6, "substring": 3, "positional": 1}),
        },
        "total": {"input_records": 30, "success": 14, "filtered": 14, "rejected": 2,
                  "success_rate": round(14 / 30, 6)},
        "ner": {"distinct_contexts": 9, "sent_to_ner": 9, "from_cache": 0},
    }
    if with_analysis:
        rows = [_ds("squad", 120 + 40 * i, "Pellin Bay", "Skarn Gulf"[: 3 + i % 7], 1 + i % 3)
                for i in range(10)]
        rows += [_ds("triviaqa", 900 + 300 * i, "Tove Arlen", "Oda Renn", 1) for i in range(4)]
        counts = Counter(k for r in rows for k in A.row_buckets(r))
        # the input: the dataset rows' contexts and those of the rows filtered out
        inputs = [(r[C.SOURCE], len(r[C.ORIGINAL_CONTEXT])) for r in rows]
        inputs += [("squad", 60 + 150 * i) for i in range(10)]
        inputs += [("triviaqa", 1500 + 200 * i) for i in range(6)]
        counts.update(k for s, n in inputs for k in A.input_row_buckets(
            {C.SOURCE: s, C.CONTEXT: "q" * n, C.STATUS: C.OK}))
        report["analysis"] = A.analysis_section([(*k, n) for k, n in counts.items()],
                                                length_ratio_bounds=(0.3, 3.0))
    if with_audit:  # the shape of core/audit_summary.audit_report
        def group(rows, leaks):
            return {"rows": rows, "flags": {
                "replacement_present": {"applies": rows, "fails": 0, "not_measurable": 0,
                                        "rate": 0.0},
                "name_part_leak": {"applies": rows // 2, "fails": leaks,
                                   "not_measurable": rows - rows // 2,
                                   "rate": round(leaks / (rows // 2), 6)},
                "gender_conflict": {"applies": 0, "fails": 0, "not_measurable": rows,
                                    "rate": None}}}
        report["audit"] = {"flags": ["replacement_present", "name_part_leak", "gender_conflict"],
                           "sources": {"squad": group(10, 1), "triviaqa": group(4, 1)},
                           "total": group(14, 2)}
    return report


def _rendered(tmp_path: Path, report: dict[str, Any]) -> tuple[str, Path]:
    index = write_report(report, tmp_path)
    assert index == str(tmp_path / "report" / "index.html")
    return Path(index).read_text(encoding="utf-8"), Path(index).parent


def test_every_section_has_its_chart_and_every_image_is_a_png(tmp_path):
    page, d = _rendered(tmp_path, hand_report())
    for chart in CHARTS:
        assert f'<section id="{chart.id}">' in page, chart.id
    assert '<section id="headline">' in page
    images = re.findall(r'<img src="([^"]+)" width="(\d+)" height="(\d+)"', page)
    assert sorted(i[0] for i in images) == sorted(f"{c.id}.png" for c in CHARTS)
    for name, w, h in images:
        data = (d / name).read_bytes()
        assert data[:8] == PNG_MAGIC, name
        # the IHDR chunk holds the pixel size the page declares
        assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (
            int(w), int(h)), name
    assert 'class="note"' not in page
    assert "http" not in page  # nothing to fetch from the network


def test_rendering_is_byte_stable(tmp_path):
    report = hand_report()
    _, a = _rendered(tmp_path / "a", report)
    _, b = _rendered(tmp_path / "b", report)
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert b"Software" not in (a / "bank.png").read_bytes()


def test_missing_analysis_and_audit_become_notes(tmp_path):
    _, d = _rendered(tmp_path, hand_report())  # an earlier render with every chart
    page, d = _rendered(tmp_path, hand_report(with_analysis=False, with_audit=False))
    skipped = {"context-length", "replacements", "length-ratio", "audit"}
    for chart in CHARTS:
        section = page.split(f'<section id="{chart.id}">')[1].split("</section>")[0]
        if chart.id in skipped:
            assert 'class="note"' in section and "<img" not in section, chart.id
            assert not (d / f"{chart.id}.png").exists(), chart.id  # stale chart removed
        else:
            assert f'src="{chart.id}.png"' in section, chart.id
    assert "no audit section" in page


def test_headline_table_numbers():
    table = headline_table(hand_report())
    rows = re.findall(r"<tr(?: class=\"total\")?>(.*?)</tr>", table)
    cells = [re.findall(r"<t[dh](?: class=\"text\")?>(.*?)</t[dh]>", r) for r in rows]
    assert cells[0][:5] == ["source", "input records", "rejected", "filtered", "dataset rows"]
    assert cells[1] == ["squad", "20", "1", "9", "10", "50.0%",
                        "no_entity_match (67% of filtered)", "8", "1", "1"]
    assert cells[2][0] == "triviaqa" and cells[2][4:6] == ["4", "40.0%"]
    assert cells[3] == ["total", "30", "2", "14", "14", "46.7%",
                        "no_entity_match (64% of filtered)", "11", "1", "2"]


def test_audit_groups_read_the_section_and_the_flat_shape():
    section = hand_report()["audit"]
    groups = audit_groups(section)
    assert list(groups) == ["squad", "triviaqa", "total"]
    assert list(groups["squad"]) == section["flags"]
    assert groups["squad"]["name_part_leak"]["fails"] == 1
    flat = {"overall": section["total"]["flags"],
            **{s: g["flags"] for s, g in section["sources"].items()}}
    assert audit_groups(flat) == {("overall" if k == "total" else k): v
                                  for k, v in groups.items()}
    assert audit_groups({}) == {}


def test_html_escapes_report_text(tmp_path):
    report = hand_report()
    report["bank"]["origin"] = "<script>alert(1)</script>"
    page, _ = _rendered(tmp_path, report)
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_command_renders_an_output_directory(tmp_path, capsys):
    (tmp_path / "report.json").write_text(json.dumps(hand_report()), encoding="utf-8")
    assert report_main([str(tmp_path)]) == 2  # no manifest.json: an incomplete run
    assert "an incomplete run (no manifest.json" in capsys.readouterr().err
    (tmp_path / "manifest.json").write_text("{}")
    assert report_main([str(tmp_path)]) == 0
    assert (tmp_path / "report" / "index.html").is_file()
    assert capsys.readouterr().out.strip() == str(tmp_path / "report" / "index.html")


@pytest.mark.parametrize("content, message", [
    (None, "no such file"), ("{not json", "not valid JSON"), ("[1, 2]", "not a faithqa")])
def test_command_reports_bad_input_in_one_line(tmp_path, capsys, content, message):
    if content is not None:
        (tmp_path / "report.json").write_text(content, encoding="utf-8")
        (tmp_path / "manifest.json").write_text("{}")  # a complete run's
    assert report_main([str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and str(tmp_path / "report.json") in err and "\n" not in err


@pytest.mark.slow
@pytest.mark.skipif(not any(shutil.which(b) for b in ("chromium", "chromium-browser",
                                                      "google-chrome")),
                    reason="needs Chromium (apt-get install -y chromium)")
def test_page_and_images_load_in_headless_chromium(tmp_path):
    (tmp_path / "report.json").write_text(json.dumps(hand_report()), encoding="utf-8")
    (tmp_path / "manifest.json").write_text("{}")
    script = Path(__file__).resolve().parents[1] / "scripts" / "check_report.py"
    done = subprocess.run([sys.executable, str(script), str(tmp_path), "--render"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{len(CHARTS)}/{len(CHARTS)} images loaded" in done.stdout
    shot = (tmp_path / "report-screenshot.png").read_bytes()
    assert shot[:8] == PNG_MAGIC and int.from_bytes(shot[20:24], "big") > 2000  # whole page
    (tmp_path / "report" / "bank.png").unlink()  # and a missing image is caught
    done = subprocess.run([sys.executable, str(script), str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "bank.png" in done.stderr


def test_a_run_with_no_rows_still_renders(tmp_path):
    empty = {"bank": {"origin": "x", "counts": {}, "total": 0}, "sources": {},
             "total": {"input_records": 0, "success": 0, "filtered": 0, "rejected": 0,
                       "success_rate": 0.0},
             "analysis": A.analysis_section([]), "audit": {}}
    page, d = _rendered(tmp_path, empty)
    for name in re.findall(r'<img src="([^"]+)"', page):
        assert (d / name).read_bytes()[:8] == PNG_MAGIC
    assert page.count('class="note"') == 4  # the analysis charts and the audit
