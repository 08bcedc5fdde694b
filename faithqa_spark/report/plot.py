"""Matplotlib plumbing for the report: one style, one palette, byte-stable PNG files.

Figures are made with the object-oriented API on the Agg canvas (no pyplot, so no global
figure state and no GUI backend), under an explicit style, and saved without the metadata
that would vary between runs or installs, so the same report.json gives the same bytes.
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager
from pathlib import Path
from typing import BinaryIO, Iterator, Sequence

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

DPI = 100
WIDTH_IN = 10.0
STYLE = {
    "font.family": "DejaVu Sans",  # bundled with matplotlib: the same glyphs everywhere
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.grid.axis": "y",  # horizontal-bar charts switch to x
    "axes.axisbelow": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.8,
    "legend.frameon": False,
    "svg.hashsalt": "faithqa",  # fixed ids should anyone save SVG
    "path.simplify": False,
}
# Colour-blind-safe (Okabe-Ito); a source keeps its colour in every chart.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
OVERALL = "#555555"


def source_colors(sources: Sequence[str]) -> dict[str, str]:
    """A colour per source, by its position among the sorted source names."""
    return {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(sorted(sources))}


def new_figure(height_in: float, width_in: float = WIDTH_IN) -> Figure:
    fig = Figure(figsize=(width_in, height_in), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def grid(fig: Figure, n: int, ncols: int = 2) -> list[Axes]:
    """n axes in rows of `ncols` (fewer when n is smaller)."""
    ncols = max(1, min(n, ncols))
    nrows = max(1, math.ceil(n / ncols))
    axes = [fig.add_subplot(nrows, ncols, i + 1) for i in range(max(n, 1))]
    return axes


def save_png(fig: Figure, path: Path | BinaryIO) -> Path | BinaryIO:
    """Save (to a file or a binary stream) without the Software tag (the only varying PNG
    metadata Agg writes)."""
    with matplotlib.rc_context(STYLE):
        fig.savefig(path, format="png", dpi=DPI, metadata={"Software": None})
    return path


def styled() -> AbstractContextManager[None]:
    """Context in which figures must be built, so that the style applies to them."""
    return matplotlib.rc_context(STYLE)


def bar_groups(n_series: int, width: float = 0.8) -> Iterator[tuple[float, float]]:
    """(offset, bar width) of each series in a group of bars centred on each category."""
    w = width / max(n_series, 1)
    for i in range(n_series):
        yield (i - (n_series - 1) / 2) * w, w


def label_bars(ax: Axes, bars, texts: Sequence[str], horizontal: bool = False,
               size: float = 8.5) -> None:
    """Write each text just beyond the end of its bar."""
    ax.bar_label(bars, labels=list(texts), padding=2, fontsize=size)
    if horizontal:
        ax.margins(x=0.15)
    else:
        ax.margins(y=0.15)


def pct(part: float, whole: float, digits: int = 1) -> str:
    return f"{100 * part / whole:.{digits}f}%" if whole else "n/a"


def thousands(n: int | float) -> str:
    return f"{n:,}" if isinstance(n, int) else f"{n:,.0f}"


def no_data(ax: Axes, text: str = "no rows") -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#777777")
    ax.set_xticks([])
    ax.set_yticks([])
