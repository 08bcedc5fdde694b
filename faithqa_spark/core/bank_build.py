"""The entity bank of a run, from the NER mentions of its contexts: which contexts feed it,
what each contributes, and how the counts become the bank (or a given bank wins). The
cleaning of a single mention is `core.bank`'s (`bank_mentions`); this is the assembly around
it, one place for both runners.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from faithqa_spark.config import BankCfg
from faithqa_spark.core import fields as C
from faithqa_spark.core.bank import EntityBank, assemble, bank_mentions, built_origin

MentionCount = tuple[str, str, int]  # entity type, bank text, mentions


def feeds_bank(sources: Iterable[str], cfg: BankCfg) -> bool:
    """Whether a context feeds the bank: one of its questions comes from a bank source
    (Spark: max(source IN bank.sources) per context)."""
    return any(s in cfg.sources for s in sources)


def context_mentions(entities: Iterable[Mapping[str, Any]] | None, in_bank: bool,
                     cfg: BankCfg) -> list[dict[str, str]]:
    """The bank mentions (MENTION_LIST records) of one distinct context: its cleaned NER
    mentions if it feeds the bank, else none."""
    if not in_bank:
        return []
    return [{C.ENTITY_TYPE: etype, C.ENT_TEXT: text}
            for etype, text in bank_mentions(entities or [], cfg)]


def count_mentions(per_context: Iterable[Iterable[Mapping[str, str]]]) -> list[MentionCount]:
    """(type, text, n) over the mentions of all distinct contexts (Spark: explode, then
    groupBy(type, text).count())."""
    counts: dict[tuple[str, str], int] = {}
    for mentions in per_context:
        for m in mentions:
            k = (m[C.ENTITY_TYPE], m[C.ENT_TEXT])
            counts[k] = counts.get(k, 0) + 1
    return [(t, s, n) for (t, s), n in counts.items()]


def run_bank(given: EntityBank | None, given_dir: str | None,
             counts: Callable[[], Iterable[MentionCount]], cfg: BankCfg
             ) -> tuple[EntityBank, str]:
    """The run's bank and its origin: the one given with --bank, else assembled from the
    mention counts (asked for only then)."""
    if given is not None:
        return given, str(given_dir)
    return assemble(counts(), cfg), built_origin(cfg)


def distinct_contexts(rows: Iterable[Mapping[str, Any]], cfg: BankCfg
                      ) -> dict[str, tuple[str, bool]]:
    """context_id -> (context, whether it feeds the bank), in first-seen order, over the
    answerable rows (Spark: `transforms.distinct_contexts`)."""
    texts: dict[str, str] = {}
    sources: dict[str, set[str]] = {}
    for r in rows:
        texts.setdefault(r[C.CONTEXT_ID], r[C.CONTEXT])
        sources.setdefault(r[C.CONTEXT_ID], set()).add(r[C.SOURCE])
    return {cid: (text, feeds_bank(sorted(sources[cid]), cfg)) for cid, text in texts.items()}
