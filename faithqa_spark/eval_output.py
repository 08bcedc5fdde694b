"""What the evaluator writes: metrics.json, a table on stdout, and an HTML page with the
memorization ratio per entity type as a chart (a deterministic PNG)."""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

from faithqa_spark.io import write_json, write_text_atomic

_COLUMNS = [("n", "n"), ("missing", "missing"), ("empty", "empty"), ("ambiguous", "ambig"), ("em", "EM"),
            ("f1", "F1"), ("p_s", "p_s"), ("p_o", "p_o"), ("mr", "MR"),
            ("neither", "neither"), ("accuracy", "acc"), ("refusal_rate", "refuse"),
            ("sentence_support", "sent.sup"), ("entity_support", "ent.sup")]
_SECTIONS = [("kind", "by_kind"), ("split", "by_split"), ("source", "by_source"),
             ("entity type", "by_entity_type"), ("match strategy", "by_match_strategy")]


def _cell(key: str, value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.3f}" if key == "mr" else f"{100 * value:.1f}"


def table_rows(metrics: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(label, group) in display order: overall, then each grouping."""
    rows = [("overall (counterfactual)", metrics["overall"])]
    for title, key in _SECTIONS:
        rows += [(f"{title}: {name}", group) for name, group in metrics[key].items()]
    return rows


def format_table(metrics: dict[str, Any]) -> str:
    """The metrics as a plain-text table (shares in %, MR as a fraction)."""
    rows = table_rows(metrics)
    width = max(len(label) for label, _ in rows)
    lines = [f"{'group':<{width}} " + " ".join(f"{h:>8}" for _, h in _COLUMNS)]
    for label, g in rows:
        lines.append(f"{label:<{width}} " + " ".join(f"{_cell(k, g.get(k)):>8}"
                                                      for k, _ in _COLUMNS))
    a = metrics["abstention"]
    lines.append(f"prediction problems: missing {metrics['missing']:,}, empty "
                 f"{metrics['empty']:,}, unknown {metrics['unknown']:,}, duplicate "
                 f"{metrics['duplicate']:,}")
    if a["precision"] is not None or a["recall"] is not None:
        lines.append(f"abstention: precision {_cell('p', a['precision'])}%, recall "
                     f"{_cell('r', a['recall'])}%, F1 {_cell('f', a['f1'])}%")
    return "\n".join(lines)


def mr_chart_png(by_entity_type: dict[str, Any]) -> bytes | None:
    """MR per entity type as a bar chart; the same bytes for the same figures (no date or
    version in the PNG's metadata). None when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    items = [(t, g) for t, g in by_entity_type.items() if g.get("mr") is not None]
    fig, ax = plt.subplots(figsize=(6, 0.4 * max(len(items), 1) + 1.2), dpi=100)
    try:
        labels = [f"{t} (n={g['n']:,})" for t, g in items]
        ax.barh(labels, [g["mr"] for _, g in items], color="#b5533c")
        ax.set_xlim(0, 1)
        ax.invert_yaxis()
        ax.set_xlabel("memorization ratio  p_o / (p_o + p_s)")
        ax.set_title("Memorization ratio per entity type")
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png", metadata={"Software": None})
        return buf.getvalue()
    finally:
        plt.close(fig)


def html_page(metrics: dict[str, Any], png: bytes | None) -> str:
    """A self-contained page: the chart (embedded) and the table."""
    head = "".join(f"<th>{html.escape(h)}</th>" for _, h in _COLUMNS)
    body = "".join(
        f"<tr><td>{html.escape(label)}</td>"
        + "".join(f"<td>{_cell(k, g.get(k))}</td>" for k, _ in _COLUMNS) + "</tr>"
        for label, g in table_rows(metrics))
    img = (f'<img alt="MR per entity type" src="data:image/png;base64,'
           f'{base64.b64encode(png).decode()}">' if png else "<p>(matplotlib not installed)</p>")
    a = metrics["abstention"]
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>Evaluation</title>
<style>body{{font-family:sans-serif;margin:2em}} td,th{{padding:2px 8px;text-align:right}}
td:first-child{{text-align:left}} table{{border-collapse:collapse}}
tr:nth-child(even){{background:#f3f3f3}}</style></head><body>
<h1>Evaluation of model predictions</h1>
<p>Shares in %, MR as a fraction. p_s / p_o: the prediction contains the substituted /
original answer; MR = p_o / (p_o + p_s). Missing {metrics['missing']:,}, empty
{metrics['empty']:,}, unknown {metrics['unknown']:,}, duplicate {metrics['duplicate']:,}.
Abstention precision {_cell('p', a['precision'])}, recall {_cell('r', a['recall'])}.</p>
{img}
<table><tr><th>group</th>{head}</tr>{body}</table>
</body></html>
"""


def write_outputs(metrics: dict[str, Any], eval_dir: Path, dataset_dir: str | None
                  ) -> list[Path]:
    """metrics.json and evaluation.html in EVAL_DIR, and the page in DIR/report/ when the
    analysis report is there. Returns the paths written."""
    page = html_page(metrics, mr_chart_png(metrics["by_entity_type"]))
    write_json(eval_dir / "metrics.json", metrics)
    written = [eval_dir / "metrics.json", eval_dir / "evaluation.html"]
    write_text_atomic(written[1], page)
    report = Path(dataset_dir) / "report" if dataset_dir else None
    if report is not None and report.is_dir():
        write_text_atomic(report / "evaluation.html", page)
        written.append(report / "evaluation.html")
    return written
