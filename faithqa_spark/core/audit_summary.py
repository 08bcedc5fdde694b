"""Aggregating audit flags (mergeable counts, report.json's `audit` section), the seeded
audit sample, and the gender of names as a dataset's own contexts give it.

Counts are a plain mapping `(source, flag, value) -> rows` with value one of
"pass" / "fail" / "na": a sum of such mappings is again one, so Spark can count per
partition or with a groupBy, and the reference runner over all rows, with the same result.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable, Mapping

from faithqa_spark.core import fields as C
from faithqa_spark.core.audit import FAIL, FLAGS, NA, PASS, PERSON, person_mentions
from faithqa_spark.core.gender import FEMALE, MALE, gender_from_votes, name_gender, window_genders
from faithqa_spark.core.hashing import stable_u64

CountKey = tuple["str | None", str, str]  # source, flag, value
DEFAULT_SAMPLE_SIZE = 200  # the paper's audit


def flag_value(v: bool | None) -> str:
    return NA if v is None else (PASS if v else FAIL)


def audit_counts(rows: Iterable[tuple[str | None, Mapping[str, bool | None]]]) -> Counter[CountKey]:
    """Counts of `(source, flag, value)` over `(source, audit struct)` pairs."""
    out: Counter[CountKey] = Counter()
    for source, audit in rows:
        for flag in FLAGS:
            out[(source, flag, flag_value(audit.get(flag)))] += 1
    return out


def merge_counts(*counts: Mapping[CountKey, int]) -> Counter[CountKey]:
    """The sum of several count mappings (partitions, files)."""
    out: Counter[CountKey] = Counter()
    for c in counts:
        out.update(c)
    return out


def _section(counts: Mapping[CountKey, int], sources: set[str | None]) -> dict[str, Any]:
    flags: dict[str, Any] = {}
    rows = 0
    for flag in FLAGS:
        n = {v: sum(c for (s, f, val), c in counts.items() if s in sources and f == flag and val == v)
             for v in (PASS, FAIL, NA)}
        applies = n[PASS] + n[FAIL]
        rows = max(rows, applies + n[NA])
        flags[flag] = {"applies": applies, "fails": n[FAIL], "not_measurable": n[NA],
                       "rate": round(n[FAIL] / applies, 6) if applies else None}
    return {"rows": rows, "flags": flags}


def audit_report(counts: Mapping[CountKey, int]) -> dict[str, Any]:
    """report.json's `audit` section: per source (rows with a source) and in total, for each
    flag the rows it applies to, the rows that fail, the rows where it is not applicable
    or not measurable, and the failure rate (fails / applies; null when it applies to none)."""
    sources = sorted({s for s, _, _ in counts if s is not None})
    return {
        "flags": list(FLAGS),
        "sources": {s: _section(counts, {s}) for s in sources},
        "total": _section(counts, {s for s, _, _ in counts}),
    }


def audit_table(section: Mapping[str, Any]) -> str:
    """A plain-text table of one report section (`audit_report(...)["total"]` or a source)."""
    lines = [f"{'flag':<28}{'applies':>9}{'fails':>9}{'rate':>9}{'n/a':>9}"]
    for flag, v in section["flags"].items():
        rate = "-" if v["rate"] is None else f"{100 * v['rate']:.1f}%"
        lines.append(f"{flag:<28}{v['applies']:>9}{v['fails']:>9}{rate:>9}{v['not_measurable']:>9}")
    return "\n".join(lines)


def audit_key(seed: int, row_id: str) -> int:
    """The rank key of a row in the audit sample (63 bits: fits a Spark LongType)."""
    return stable_u64(seed, "audit", row_id) >> 1


def audit_sample_ids(ids: Iterable[str], seed: int, n: int = DEFAULT_SAMPLE_SIZE) -> list[str]:
    """The `n` ids of lowest `audit_key`, in that order: the same for any partitioning (a
    Spark job takes `orderBy(key, id).limit(n)`)."""
    return [i for _, i in sorted((audit_key(seed, i), i) for i in ids)[:n]]


# ---- the gender of names, from the dataset's own contexts ----

def row_gender_votes(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """One `(original entity, 'm'|'f')` vote per mention of a PERSON row's original entity
    in its original context whose window holds a gendered pronoun."""
    if row.get(C.ENTITY_TYPE) != PERSON:
        return []
    ctx, orig = row.get(C.ORIGINAL_CONTEXT), row.get(C.ORIGINAL_ENTITY)
    if not isinstance(ctx, str) or not isinstance(orig, str) or not orig.strip():
        return []
    name = orig.strip()
    return [(name, g) for g in window_genders(ctx, person_mentions(ctx, name))]


VoteCounts = dict[str, tuple[int, int]]  # name -> (male votes, female votes)


def vote_counts(votes: Iterable[tuple[str, str]]) -> VoteCounts:
    """Votes summed per name (the same sum a Spark groupBy gives)."""
    c: Counter[tuple[str, str]] = Counter(votes)
    names = sorted({n for n, _ in c})
    return {n: (c[(n, MALE)], c[(n, FEMALE)]) for n in names}


def gender_lookup(votes: Mapping[str, tuple[int, int]]) -> Callable[[str], str | None]:
    """The gender of a name: from the corpus votes when they decide, else the lexicon."""
    def gender_of(name: str) -> str | None:
        m, f = votes.get(name, (0, 0))
        return gender_from_votes(m, f) or name_gender(name)
    return gender_of
