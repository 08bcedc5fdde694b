"""The audit sheet: one self-contained HTML page that shows each sampled row for a person to
review (question, both contexts with the original and replaced spans highlighted, both
answers, every audit flag)."""

from __future__ import annotations

import html
from typing import Any, Mapping, Sequence

from faithqa_spark.core import fields as C
from faithqa_spark.core.text import boundary_matches

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:75em;color:#222}
.row{border:1px solid #ccc;border-radius:6px;padding:1em;margin:1em 0}
.ctx{white-space:pre-wrap;background:#fafafa;padding:.5em;border-left:3px solid #ddd}
mark.orig{background:#ffd6d6} mark.repl{background:#cdeccd}
.flags span{display:inline-block;margin:.15em;padding:.1em .45em;border-radius:4px;font-size:.85em}
.pass{background:#dff3df}.fail{background:#f8caca;font-weight:bold}.na{background:#eee;color:#777}
h2{font-size:1.05em;margin:.2em 0} .meta{color:#666;font-size:.9em}
"""


def highlight(text: str, spans: Sequence[tuple[int, int]], css: str) -> str:
    """`text` as HTML with each non-overlapping `[start, end)` span wrapped in <mark>."""
    out, last = [], 0
    for a, b in sorted(spans):
        if a < last or b > len(text):
            continue  # an overlapping or out-of-range span is shown plain, never mangled
        out.append(html.escape(text[last:a]))
        out.append(f'<mark class="{css}">{html.escape(text[a:b])}</mark>')
        last = b
    out.append(html.escape(text[last:]))
    return "".join(out)


def _modified_spans(row: Mapping[str, Any]) -> list[tuple[int, int]]:
    spans = row.get(C.MODIFIED_SPANS)
    if spans is not None:
        return [(s[C.SPAN_START], s[C.SPAN_END]) for s in spans]
    rep, mod = row.get(C.REPLACEMENT_ENTITY), row.get(C.MODIFIED_CONTEXT)
    return boundary_matches(mod, rep.strip()) if rep and mod else []


def _flag(name: str, value: bool | None) -> str:
    css, word = ("na", "n/a") if value is None else (("pass", "pass") if value else ("fail", "FAIL"))
    return f'<span class="{css}" title="{name}">{html.escape(name)}: {word}</span>'


def render_row(n: int, row: Mapping[str, Any]) -> str:
    """One sampled row as an HTML block."""
    e = lambda k: html.escape(str(row.get(k) if row.get(k) is not None else "—"))  # noqa: E731
    orig_ctx, mod_ctx = row.get(C.ORIGINAL_CONTEXT) or "", row.get(C.MODIFIED_CONTEXT) or ""
    orig = (row.get(C.ORIGINAL_ENTITY) or "").strip()
    audit = row.get(C.AUDIT) or {}
    flags = "".join(_flag(k, audit.get(k)) for k in C.AUDIT_FLAGS)
    return (
        f'<div class="row" id="r{n}"><h2>{n}. {e(C.QUESTION)}</h2>'
        f'<div class="meta">id {e(C.ID)} · source {e(C.SOURCE)} · type {e(C.ENTITY_TYPE)} · '
        f'<mark class="orig">{e(C.ORIGINAL_ENTITY)}</mark> → '
        f'<mark class="repl">{e(C.REPLACEMENT_ENTITY)}</mark></div>'
        f'<p><b>Original context</b></p><div class="ctx">'
        f'{highlight(orig_ctx, boundary_matches(orig_ctx, orig) if orig else [], "orig")}</div>'
        f'<p><b>Modified context</b></p><div class="ctx">'
        f'{highlight(mod_ctx, _modified_spans(row), "repl")}</div>'
        f'<p><b>Original answer:</b> {e(C.ORIGINAL_ANSWER)} · '
        f'<b>Faithful answer:</b> {e(C.FAITHFUL_ANSWER)}</p>'
        f'<div class="flags">{flags}</div></div>')


def render_audit_sheet(rows: Sequence[Mapping[str, Any]], *, title: str = "Audit sample") -> str:
    """The whole page (no external files): a summary of failures per flag, then each row."""
    fails = {k: sum(1 for r in rows if (r.get(C.AUDIT) or {}).get(k) is False) for k in C.AUDIT_FLAGS}
    applies = {k: sum(1 for r in rows if (r.get(C.AUDIT) or {}).get(k) is not None) for k in C.AUDIT_FLAGS}
    summary = "".join(f"<tr><td>{k}</td><td>{applies[k]}</td><td>{fails[k]}</td></tr>"
                      for k in C.AUDIT_FLAGS)
    body = "\n".join(render_row(i + 1, r) for i, r in enumerate(rows))
    t = html.escape(title)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{t}</title>'
            f"<style>{_CSS}</style></head><body><h1>{t}</h1>"
            f"<p>{len(rows)} rows. <mark class=\"orig\">original entity</mark> in the original "
            f"context, <mark class=\"repl\">replaced region</mark> in the modified context.</p>"
            f"<table><tr><th>flag</th><th>applies</th><th>fails</th></tr>{summary}</table>"
            f"{body}</body></html>\n")
