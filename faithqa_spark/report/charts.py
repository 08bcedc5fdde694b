"""The report's charts, each a function of report.json alone: `fn(report) -> Figure | None`
(None when the report lacks the section the chart needs)."""

from __future__ import annotations

from typing import Any, Mapping

from matplotlib.figure import Figure
from matplotlib.ticker import MultipleLocator

from faithqa_spark.core import analysis as A
from faithqa_spark.core import fields as C
from faithqa_spark.report.plot import (OVERALL, bar_groups, grid, label_bars, new_figure,
                                       no_data, pct, source_colors, thousands)

Report = Mapping[str, Any]


def _sources(report: Report) -> dict[str, Any]:
    return dict(sorted(report.get("sources", {}).items()))


def _shares_by_source(ax, per_source: Mapping[str, Mapping[str, int]], categories: list[str],
                      colors: Mapping[str, str], *, label_min: float = 0.0) -> None:
    """Grouped vertical bars: each source's share of its own rows per category."""
    xs = range(len(categories))
    for (source, counts), (off, w) in zip(per_source.items(), bar_groups(len(per_source))):
        total = sum(counts.values())
        shares = [100 * counts.get(c, 0) / total if total else 0.0 for c in categories]
        bars = ax.bar([x + off for x in xs], shares, w, color=colors[source],
                      label=f"{source} (n={total:,})")
        label_bars(ax, bars, [f"{s:.0f}%" if s >= label_min and s > 0 else "" for s in shares],
                   size=8.5)
    ax.set_xticks(list(xs), categories)
    ax.set_ylabel("share of the source's dataset rows (%)")
    _legend_outside(ax)


def _legend_outside(ax) -> None:
    """The legend right of the plot, where it cannot cover a bar."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _value_grid_x(ax) -> None:
    """Horizontal bars: grid lines along the value axis only."""
    ax.grid(axis="y", visible=False)
    ax.grid(axis="x", visible=True)


def entity_types(report: Report) -> Figure:
    """The paper's figure: the entity type of the replaced entity, per source."""
    src = _sources(report)
    per = {s: v.get("entity_types", {}) for s, v in src.items()}
    totals: dict[str, int] = {}
    for counts in per.values():
        for t, n in counts.items():
            totals[t] = totals.get(t, 0) + n
    types = sorted(totals, key=lambda t: (-totals[t], t))
    fig = new_figure(4.2)
    ax = fig.add_subplot()
    if not types:
        no_data(ax)
    else:
        _shares_by_source(ax, per, types, source_colors(list(src)), label_min=0.5)
        ax.set_xlabel("entity type (spaCy label)")
    ax.set_title("Entity type of the replaced entity")
    return fig


def match_strategies(report: Report) -> Figure:
    src = _sources(report)
    per = {s: v.get("match_strategies", {}) for s, v in src.items()}
    order = ["exact", "substring", "positional"]
    cats = order + sorted({k for c in per.values() for k in c} - set(order))
    fig = new_figure(3.6)
    ax = fig.add_subplot()
    if not any(per.values()):
        no_data(ax)
    else:
        _shares_by_source(ax, per, cats, source_colors(list(src)))
        ax.set_xlabel("how the answer was matched to an entity of its context")
    ax.set_title("Match strategies")
    return fig


def funnel(report: Report) -> Figure:
    """Per source: input records, then where they went (rejected, each filter reason,
    dataset), with the share of the input."""
    src = _sources(report)
    colors = source_colors(list(src))
    bars_per = [len(v.get("filtered_by_reason", {})) + 3 for v in src.values()]
    fig = new_figure(0.6 + sum(0.7 + 0.3 * n for n in bars_per))
    # one panel per source, each as tall as its number of bars, so every bar is as thick
    spec = fig.add_gridspec(max(len(src), 1), 1, height_ratios=[2 + n for n in bars_per] or [1])
    for i, (source, v) in enumerate(src.items()):
        ax = fig.add_subplot(spec[i, 0])
        rows = [("input records", v["input_records"]), ("rejected (malformed input)",
                                                        v["rejected"])]
        rows += [(f"filtered: {r}", n) for r, n in v.get("filtered_by_reason", {}).items()]
        rows.append(("dataset", v["success"]))
        names, values = [r[0] for r in rows][::-1], [r[1] for r in rows][::-1]
        shades = [colors[source] if n in ("dataset", "input records") else "#9aa5b1"
                  for n in names]
        bars = ax.barh(names, values, color=shades)
        label_bars(ax, bars, [f"{thousands(x)} ({pct(x, v['input_records'])})" for x in values],
                   horizontal=True)
        ax.set_title(f"{source}: {pct(v['success'], v['input_records'])} of the input kept")
        ax.set_xlabel("rows")
        _value_grid_x(ax)
    if not src:
        no_data(fig.add_subplot())
    fig.suptitle("Filter funnel", fontweight="bold")
    return fig


def splits(report: Report) -> Figure:
    src = _sources(report)
    colors = source_colors(list(src))
    fig = new_figure(3.4)
    ax = fig.add_subplot()
    xs = range(len(C.SPLITS))
    for (source, v), (off, w) in zip(src.items(), bar_groups(len(src))):
        counts = [v.get("splits", {}).get(s, 0) for s in C.SPLITS]
        bars = ax.bar([x + off for x in xs], counts, w, color=colors[source], label=source)
        label_bars(ax, bars, [f"{c:,} ({pct(c, sum(counts), 0)})" for c in counts], size=8)
    ax.set_xticks(list(xs), list(C.SPLITS))
    ax.set_ylabel("dataset rows")
    ax.set_title("Split counts")
    if src:
        _legend_outside(ax)
    else:
        no_data(ax)
    return fig


def bank(report: Report) -> Figure:
    b = report.get("bank", {})
    counts = b.get("counts", {})
    types = sorted(counts, key=lambda t: (counts[t], t))  # largest on top
    fig = new_figure(0.8 + 0.35 * max(len(types), 3))
    ax = fig.add_subplot()
    bars = ax.barh(types, [counts[t] for t in types], color=OVERALL)
    label_bars(ax, bars, [f"{counts[t]:,} ({pct(counts[t], b.get('total', 0))})" for t in types],
               horizontal=True)
    ax.set_xlabel("distinct entities")
    _value_grid_x(ax)
    ax.set_title(f"Entity bank: {b.get('total', 0):,} entities ({b.get('origin', '?')})")
    return fig


def context_length(report: Report) -> Figure | None:
    """Per source, contexts of the input rows and of the dataset rows by length: the gap
    between the two bars of a bucket is what the pipeline filtered there."""
    an = report.get("analysis")
    if not an or not an.get(A.CONTEXT_CHARS_INPUT):
        return None
    inputs, kept = an[A.CONTEXT_CHARS_INPUT], an.get(A.CONTEXT_CHARS_DATASET, {})
    sources = sorted(set(inputs) | set(kept))
    labels = list(next(iter(inputs.values())))  # the same buckets for every source
    colors = source_colors(sources)
    fig = new_figure(3.6 * len(sources))
    axes = grid(fig, len(sources), ncols=1)
    for ax, source in zip(axes, sources):
        buckets = labels
        n_in = [inputs.get(source, {}).get(b, 0) for b in buckets]
        n_ok = [kept.get(source, {}).get(b, 0) for b in buckets]
        xs = range(len(buckets))
        ax.bar(xs, n_in, 0.8, color=colors[source], alpha=0.3, label="input rows read OK")
        bars = ax.bar(xs, n_ok, 0.8, color=colors[source], label="dataset rows")
        label_bars(ax, bars, [pct(k, i, 0) if i else "" for k, i in zip(n_ok, n_in)], size=8.5)
        ax.set_xticks(list(xs), buckets, rotation=35, ha="right")
        ax.set_xlabel("context length (characters; the label over a bar: share kept)")
        ax.set_ylabel("rows")
        ax.set_title(f"{source}: context length")
        _legend_outside(ax)
    return fig


def _per_source_hist(report: Report, section: str, title: str, xlabel: str) -> Figure | None:
    an = report.get("analysis")
    if not an or not an.get(section):
        return None
    per = an[section]
    colors = source_colors(list(per))
    fig = new_figure(3.8)
    ax = fig.add_subplot()
    cats = list(next(iter(per.values())))
    _shares_by_source(ax, per, cats, colors, label_min=1.0)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    return fig


def replacements(report: Report) -> Figure | None:
    return _per_source_hist(report, A.NUM_REPLACEMENTS, "Replacements per row",
                            "occurrences of the original entity replaced in the context")


def length_ratio(report: Report) -> Figure | None:
    """Histogram on a true ratio axis (bars span their 0.1 buckets), with the bounds."""
    an = report.get("analysis")
    if not an or not an.get(A.LENGTH_RATIO):
        return None
    per = an[A.LENGTH_RATIO]
    colors = source_colors(list(per))
    bounds = an.get(A.LENGTH_RATIO_BOUNDS)
    step = 1 / A.RATIO_STEPS_PER_UNIT
    fig = new_figure(3.8)
    ax = fig.add_subplot()
    for (source, counts), (off, w) in zip(per.items(), bar_groups(len(per), 0.9)):
        total = sum(counts.values())
        xs = [(A.ratio_steps(b) + 0.5 + off) * step for b in counts]
        shares = [100 * n / total if total else 0.0 for n in counts.values()]
        ax.bar(xs, shares, w * step, color=colors[source], label=f"{source} (n={total:,})")
    lo = min(A.ratio_steps(b) for c in per.values() for b in c) * step
    hi = (max(A.ratio_steps(b) for c in per.values() for b in c) + 1) * step
    if bounds:
        for key, edge, dx, ha in (("min", bounds["min"], 3, "left"),
                                  ("max", bounds["max"], -3, "right")):
            ax.axvline(edge, color="#aa0000", linestyle="--", linewidth=1)
            ax.annotate(f"configured {key} {edge}", (edge, 1), xycoords=("data", "axes fraction"),
                        xytext=(dx, -12), textcoords="offset points", ha=ha, color="#aa0000",
                        fontsize=8)
        lo, hi = min(lo, bounds["min"]), max(hi, bounds["max"])
    ax.set_xlim(lo - step, hi + step)
    ax.xaxis.set_major_locator(MultipleLocator(0.5))
    ax.xaxis.set_minor_locator(MultipleLocator(step))
    ax.set_xlabel("len(replacement) / len(original entity) (buckets of 0.1)")
    ax.set_ylabel("share of the source's dataset rows (%)")
    ax.set_title("Length ratio of the replacement")
    _legend_outside(ax)
    return fig


def audit_groups(audit: Mapping[str, Any]) -> dict[str, dict[str, Mapping[str, Any]]]:
    """`{group: {flag: {applies, fails, ...}}}` from report.json's `audit` section: the
    sources in name order, then the total. The section's shape (core/audit_summary.py) is
    `{"flags": [...], "sources": {src: {"rows", "flags": {flag: stats}}}, "total": {...}}`;
    groups holding the flags directly, and `overall` for `total`, are read too."""
    def flags_of(d: Any) -> dict[str, Mapping[str, Any]] | None:
        if isinstance(d, Mapping) and isinstance(d.get("flags"), Mapping):
            d = d["flags"]
        ok = isinstance(d, Mapping) and bool(d) and all(
            isinstance(x, Mapping) and "applies" in x for x in d.values())
        return dict(d) if ok else None
    groups = {k: f for k, v in audit.get("sources", {}).items() if (f := flags_of(v))}
    groups.update({k: f for k, v in audit.items()
                   if k not in ("total", "overall", "sources") and (f := flags_of(v))})
    ordered = dict(sorted(groups.items()))
    for key in ("total", "overall"):
        if (f := flags_of(audit.get(key))):
            ordered[key] = f
            break
    # the section's flag order; flags it does not list keep theirs, after those
    rank = {f: i for i, f in enumerate(audit.get("flags", [])) if isinstance(f, str)}
    return {g: {name: flags[name] for name in sorted(flags, key=lambda n: rank.get(n, len(rank)))}
            for g, flags in ordered.items()}


def audit(report: Report) -> Figure | None:
    """Per flag, the share of the rows it applies to that pass it, per source and overall."""
    groups = audit_groups(report.get("audit") or {})
    if not groups:
        return None
    if len(groups) == 2:  # one source: its bars would repeat the total's
        groups = dict(list(groups.items())[:1])
    flags: list[str] = []
    for g in groups.values():
        flags += [f for f in g if f not in flags]
    totals = ("total", "overall")
    colors = {**source_colors([g for g in groups if g not in totals]),
              **{t: OVERALL for t in totals}}
    fig = new_figure(1.2 + 0.22 * len(flags) * len(groups))
    ax = fig.add_subplot()
    ys = range(len(flags))[::-1]  # the first flag on top
    for (name, g), (off, h) in zip(groups.items(), bar_groups(len(groups))):
        rates, texts = [], []
        for f in flags:
            applies, fails = g.get(f, {}).get("applies", 0), g.get(f, {}).get("fails", 0)
            rates.append(100 * (applies - fails) / applies if applies else 0.0)
            texts.append(f"{rates[-1]:.1f}% of {applies:,}" if applies else "not measurable")
        bars = ax.barh([y - off for y in ys], rates, h, color=colors[name], label=name)
        label_bars(ax, bars, texts, horizontal=True, size=8)
    ax.set_yticks(list(ys), flags)
    ax.set_xlim(0, 125)
    ax.set_xticks([0, 20, 40, 60, 80, 100])
    ax.set_xlabel("pass rate (%) among the rows the flag applies to")
    _value_grid_x(ax)
    _legend_outside(ax)
    ax.set_title("Audit: pass rate per flag")
    return fig
