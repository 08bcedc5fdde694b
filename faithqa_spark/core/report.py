"""report.json: per source and per input file, where every input row ended up."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Mapping

from faithqa_spark.core import fields as C
from faithqa_spark.errors import ReconciliationError

__all__ = ["ReconciliationError", "build_report", "ner_section"]

StatusCount = tuple[str, str, str, str | None, int]  # source, input_file, status, reason, n
SuccessCount = tuple[str, str, str, str, int]  # source, split, entity_type, match_strategy, n
InputCount = tuple[str, str, int]  # source, input_file, records read


def ner_section(distinct_contexts: int, sent_to_ner: int) -> dict[str, int]:
    """The report's `ner` section: contexts NER saw, and how many came from the NER cache."""
    return {"distinct_contexts": distinct_contexts, "sent_to_ner": sent_to_ner,
            "from_cache": distinct_contexts - sent_to_ner}


def build_report(inputs: Iterable[InputCount], statuses: Iterable[StatusCount],
                 successes: Iterable[SuccessCount], *, bank_counts: Mapping[str, int],
                 bank_origin: str, provenance: Mapping[str, str], ner: Mapping[str, int],
                 sections: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Assemble the report, and check that for every file
    input_records == success + filtered + rejected (raises ReconciliationError if not).
    `sections` are further aggregated sections (e.g. an audit summary), added after `ner`
    in their order; their names must not clash with the report's own."""
    files: dict[tuple[str, str], dict[str, int]] = defaultdict(
        lambda: {"input_records": 0, "success": 0, "filtered": 0, "rejected": 0})
    for source, path, n in inputs:
        files[(source, path)]["input_records"] += n
    by_reason: dict[str, dict[str, dict[str, int]]] = defaultdict(
        lambda: {C.FILTERED: defaultdict(int), C.REJECTED: defaultdict(int)})
    for source, path, status, reason, n in statuses:
        files[(source, path)]["success" if status == C.OK else status] += n
        if status != C.OK:
            by_reason[source][status][reason or "unknown"] += n
    succ: dict[str, dict[str, dict[str, int]]] = defaultdict(
        lambda: {"splits": defaultdict(int), "entity_types": defaultdict(int),
                 "match_strategies": defaultdict(int)})
    for source, split, etype, strategy, n in successes:
        succ[source]["splits"][split] += n
        succ[source]["entity_types"][etype] += n
        succ[source]["match_strategies"][strategy] += n

    bad = [f"{path} ({source}): {c['input_records']} read, {c['success']} + {c['filtered']}"
           f" + {c['rejected']} accounted for"
           for (source, path), c in sorted(files.items())
           if c["input_records"] != c["success"] + c["filtered"] + c["rejected"]]
    if bad:
        raise ReconciliationError("rows lost or duplicated: " + "; ".join(bad))

    sources: dict[str, Any] = {}
    for source in sorted({s for s, _ in files}):
        per_file = {p: dict(c) for (s, p), c in sorted(files.items()) if s == source}
        tot = {k: sum(c[k] for c in per_file.values())
               for k in ("input_records", "success", "filtered", "rejected")}
        sc = succ[source]
        if sum(sc["splits"].values()) != tot["success"]:
            raise ReconciliationError(
                f"{source}: {tot['success']} successes but {sum(sc['splits'].values())} in splits")
        sources[source] = {
            **tot,
            "success_rate": round(tot["success"] / tot["input_records"], 6)
            if tot["input_records"] else 0.0,
            "filtered_by_reason": _sorted_desc(by_reason[source][C.FILTERED]),
            "rejected_by_reason": _sorted_desc(by_reason[source][C.REJECTED]),
            "splits": {s: sc["splits"].get(s, 0) for s in C.SPLITS},
            "entity_types": _sorted_desc(sc["entity_types"]),
            "match_strategies": _sorted_desc(sc["match_strategies"]),
            "files": per_file,
        }
    total = {k: sum(s[k] for s in sources.values())
             for k in ("input_records", "success", "filtered", "rejected")}
    total["success_rate"] = (round(total["success"] / total["input_records"], 6)
                             if total["input_records"] else 0.0)
    report = {
        **provenance,
        "bank": {"origin": bank_origin, "counts": dict(bank_counts),
                 "total": sum(bank_counts.values())},
        "sources": sources,
        "total": total,
        "ner": dict(ner),
    }
    clash = sorted(set(sections or {}) & set(report))
    if clash:
        raise ValueError(f"report section {clash[0]!r} exists already")
    report.update(sections or {})
    return report


def _sorted_desc(counts: Mapping[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
