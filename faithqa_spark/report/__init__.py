"""The HTML analysis report (`write_report`) and, beside it, the audit sheet."""

from __future__ import annotations

from faithqa_spark.report.index import write_report

__all__ = ["write_report"]
