"""DIR/report/index.html: the analysis report, from report.json alone.

One HTML page with inline CSS and no script, beside its PNG charts (no network, nothing
else to load). The same report.json gives the same bytes.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from matplotlib.figure import Figure

from faithqa_spark.core import fields as C
from faithqa_spark.outdir import OutDir, as_outdir
from faithqa_spark.report import charts
from faithqa_spark.report.plot import DPI, save_png, styled

REPORT_DIR = "report"
INDEX = "index.html"


@dataclass(frozen=True)
class Chart:
    id: str  # the section's HTML id and the PNG's name
    title: str
    caption: str
    draw: Callable[[Mapping[str, Any]], Figure | None]
    missing: str = ""  # shown instead of the chart when `draw` returns None


CHARTS: tuple[Chart, ...] = (
    Chart("entity-types", "Entity types", "The type of the replaced entity in each source's "
          "dataset rows, as a share of that source's rows (the paper's figure).",
          charts.entity_types),
    Chart("context-length", "Context length", "Contexts of the input rows read OK (light) and "
          "of the dataset rows (dark) by length, on log-spaced buckets; the label over a bar "
          "is the share of that bucket's rows that reached the dataset.", charts.context_length,
          "report.json has no analysis section (rendered from a report written before it "
          "existed), so this chart is left out."),
    Chart("funnel", "Filter funnel", "Where every input record ended: rejected as malformed "
          "input, filtered by the pipeline (each reason), or in the dataset; the share is of "
          "the source's input records.", charts.funnel),
    Chart("match-strategies", "Match strategies", "How each dataset row's answer was matched "
          "to an entity of its context: exact text, substring (largest overlap), or position "
          "of the answer in the context.", charts.match_strategies),
    Chart("replacements", "Replacements per row", "How many occurrences of the original "
          "entity each dataset row replaced in its context.", charts.replacements,
          "report.json has no analysis section, so this chart is left out."),
    Chart("length-ratio", "Length ratio", "len(replacement) / len(original entity) of each "
          "dataset row, in buckets of 0.1 ([0.5, 0.6) and so on); the dashed lines are the "
          "configured bounds, which are inclusive: a ratio of exactly the maximum lies in the "
          "bucket just right of its line.", charts.length_ratio,
          "report.json has no analysis section, so this chart is left out."),
    Chart("audit", "Audit pass rates", "For each audit flag, the share of the rows it "
          "applies to that pass it (no defect found), per source and in total; the label gives "
          "the number of rows the flag applies to. replacement_present, original_removed, "
          "context_modified and length_ratio are the paper's four audit dimensions; the "
          "others measure the coherence defects the paper does not check.", charts.audit,
          "report.json has no audit section: this run was made without the audit, so there "
          "are no pass rates to show."),
    Chart("splits", "Splits", "Dataset rows per split and source (80/10/10 by hash rank).",
          charts.splits),
    Chart("bank", "Entity bank", "Distinct entities per type in the entity bank that the "
          "replacements were drawn from.", charts.bank),
)

CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 2em auto; max-width: 1040px;
       color: #222; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 1.6em; }
.meta { color: #555; font-size: 0.9em; }
.meta code { background: #f3f3f3; padding: 0 0.3em; }
table { border-collapse: collapse; font-size: 0.92em; margin: 0.5em 0; }
th, td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: right; }
th { background: #f3f5f8; }
td:first-child, th:first-child, td.text { text-align: left; }
td.text { white-space: nowrap; }
tr.total td { font-weight: bold; background: #fafafa; }
img { max-width: 100%; height: auto; display: block; }
.caption { color: #444; font-size: 0.92em; margin: 0.3em 0 0.6em; }
.note { background: #fff8e1; border-left: 4px solid #e6a700; padding: 0.5em 0.8em; }
nav a { margin-right: 0.8em; }
"""


def write_report(report: Mapping[str, Any], out_dir: OutDir | str | Path) -> str:
    """Write DIR/report/index.html and its PNG charts from a report.json dict (DIR on any
    filesystem); returns the path of index.html. Charts whose sections are missing become a
    note."""
    out = as_outdir(out_dir)
    parts = []
    for chart in CHARTS:
        with styled():
            fig = chart.draw(report)
        png = f"{REPORT_DIR}/{chart.id}.png"
        if fig is None:
            out.remove(png)  # a chart from an earlier render would mislead
            parts.append(_section(chart, None))
            continue
        w, h = (round(x * DPI) for x in fig.get_size_inches())
        buf = io.BytesIO()
        save_png(fig, buf)
        out.write_bytes(png, buf.getvalue())
        parts.append(_section(chart, (png.rsplit("/", 1)[-1], w, h)))
    index = f"{REPORT_DIR}/{INDEX}"
    out.write_text(index, _page(report, parts))
    return out.path(index)


def _section(chart: Chart, image: tuple[str, int, int] | None) -> str:
    e = html.escape
    body = (f'<img src="{e(image[0])}" width="{image[1]}" height="{image[2]}" '
            f'alt="{e(chart.title)} chart">' if image
            else f'<p class="note">{e(chart.missing)}</p>')
    return (f'<section id="{chart.id}">\n<h2>{e(chart.title)}</h2>\n'
            f'<p class="caption">{e(chart.caption)}</p>\n{body}\n</section>')


def _page(report: Mapping[str, Any], sections: list[str]) -> str:
    e = html.escape
    meta = [(k, report.get(k)) for k in ("pipeline_version", "ner_model", "config_hash")]
    meta.append(("bank", report.get("bank", {}).get("origin")))
    meta_html = " · ".join(f"{e(k)} <code>{e(str(v))}</code>" for k, v in meta if v)
    nav = " ".join(f'<a href="#{c.id}">{e(c.title)}</a>' for c in CHARTS)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>Faithfulness-QA dataset report</title>\n"
        f"<style>{CSS}</style>\n</head>\n<body>\n"
        "<h1>Faithfulness-QA dataset report</h1>\n"
        f'<p class="meta">{meta_html}</p>\n<nav>{nav}</nav>\n'
        f'<section id="headline">\n<h2>Headline numbers</h2>\n{headline_table(report)}\n'
        "</section>\n" + "\n".join(sections) + "\n</body>\n</html>\n")


HEADLINE_COLUMNS = ("input records", "rejected", "filtered", "dataset rows", "success rate",
                    "top filter reason", *C.SPLITS)


def headline_table(report: Mapping[str, Any]) -> str:
    """The per-source numbers a reader wants first, with a total row, as an HTML table."""
    e = html.escape
    rows = []
    sources = dict(sorted(report.get("sources", {}).items()))
    for name, s in sources.items():
        rows.append((name, s, _top_reason(s), s.get("splits", {}), ""))
    total = report.get("total")
    if total and len(sources) > 1:
        splits = {k: sum(s.get("splits", {}).get(k, 0) for s in sources.values())
                  for k in C.SPLITS}
        reasons: dict[str, int] = {}
        for s in sources.values():
            for r, n in s.get("filtered_by_reason", {}).items():
                reasons[r] = reasons.get(r, 0) + n
        rows.append(("total", total, _top_reason({**total, "filtered_by_reason": reasons}),
                     splits, ' class="total"'))
    head = "".join(f"<th>{e(c)}</th>" for c in ("source", *HEADLINE_COLUMNS))
    body = []
    for name, s, top, splits, cls in rows:
        num = [f"{s.get(k, 0):,}" for k in ("input_records", "rejected", "filtered", "success")]
        num.append(f"{100 * s.get('success_rate', 0):.1f}%")
        tail = [f"{splits.get(k, 0):,}" for k in C.SPLITS]
        cells = ([f"<td>{e(c)}</td>" for c in num] + [f'<td class="text">{e(top)}</td>']
                 + [f"<td>{e(c)}</td>" for c in tail])
        body.append(f"<tr{cls}><td>{e(name)}</td>" + "".join(cells) + "</tr>")
    return f"<table>\n<tr>{head}</tr>\n" + "\n".join(body) + "\n</table>"


def _top_reason(s: Mapping[str, Any]) -> str:
    reasons = s.get("filtered_by_reason", {})
    if not reasons:
        return "-"
    r, n = min(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    share = f"{100 * n / s['filtered']:.0f}% of filtered" if s.get("filtered") else ""
    return f"{r} ({share})" if share else r
