"""Where every row ends up: the rules between the row processor and the outputs, one place
for both runners.

The Spark job applies these to DataFrames (`faithqa_spark.spark.transforms` builds its
Column expressions from the tables here, `PLACED_AS` and `LEFTOVER_FROM`, and feeds its
aggregations to `tally`); the reference runner calls the functions row by row. A rule
changes here, in one place, and the tests compare the two runners on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons
from faithqa_spark.core.eras import name_eras
from faithqa_spark.core.matching import Entity
from faithqa_spark.core.nearby import Nearby, article_of, famous
from faithqa_spark.core.process import Provenance, process_row
from faithqa_spark.core.report import InputCount, StatusCount, SuccessCount
from faithqa_spark.core.sampling import SamplingIndex
from faithqa_spark.core.splitting import OVER_CAP, Bounds, bounds_of_keys, label_for_key

# ---------------------------------------------------------------- one row's outcome


def run_index(bank: Mapping[str, Sequence[str]], near: Nearby | None) -> SamplingIndex:
    """The sampling index of a run: the bank's, knowing which names several articles of
    `near` name (`core.nearby.famous`) and when the names belong (`core.eras.name_eras`).
    Both runners build it here."""
    index = SamplingIndex.from_bank(bank)
    return index.knowing_famous(famous(near), name_eras(near)) if near else index


def derived_columns(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """Columns computed from a finished outcome: the one seam where a dataset row gets a new
    column (its field goes into `fields.OUTCOME_FIELDS` and `fields.DATASET_FIELDS`, its value
    here). The Spark task converts every outcome field it does not pass through, so neither
    runner changes. None today: the `audit` column is set by `process_row`, where the coherent
policy verifies the row with the same flags."""
    return {}


def outcome_of(row: Mapping[str, Any], entities: Sequence[Entity], index: SamplingIndex,
               cfg: Config, prov: Provenance, nearby: Nearby | None = None) -> dict[str, Any]:
    """The outcome of one answerable QA row, with its derived columns: what both runners
    call for every row. `nearby`: the entities of every article (`core.nearby`)."""
    out = process_row(row, entities, index, cfg, prov,
                      nearby.get(article_of(row)) if nearby else None)
    extra = derived_columns(out)
    if extra:
        out.update(extra)
    return out


# ---------------------------------------------------------------- placement

# Split labels that take a successful row out of the dataset: label -> (status, reason).
PLACED_AS: dict[str, tuple[str, str]] = {OVER_CAP: (C.FILTERED, reasons.OVER_SOURCE_CAP)}


def split_label(outcome: Mapping[str, Any], bounds: Mapping[str, Bounds]) -> str | None:
    """train/dev/test/over_cap for a successful outcome (by its source's bounds); None for a
    filtered one."""
    if outcome[C.STATUS] != C.OK:
        return None
    return label_for_key((outcome[C.SPLIT_KEY], outcome[C.ID]), bounds[outcome[C.SOURCE]])


def place(status: str, reason: str | None, label: str | None) -> tuple[str, str | None]:
    """Final (status, reason) of an outcome with split label `label` (over the source's cap:
    filtered as over_source_cap)."""
    return PLACED_AS.get(label, (status, reason)) if label is not None else (status, reason)


def placed(outcome: Mapping[str, Any], bounds: Mapping[str, Bounds]) -> dict[str, Any]:
    """The outcome with its split label and final status and reason."""
    label = split_label(outcome, bounds)
    status, reason = place(outcome[C.STATUS], outcome[C.REASON], label)
    return {**outcome, C.SPLIT: label, C.STATUS: status, C.REASON: reason}


def dataset_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A placed successful outcome as a dataset row (DATASET_COLUMNS)."""
    return {c: row.get(c) for c in C.DATASET_COLUMNS}


# A leftover column takes the first of these fields that the row has and that is not null:
# an outcome carries the question's answer as original_answer, a reader record as answer.
LEFTOVER_FROM: dict[str, tuple[str, ...]] = {C.ANSWER: (C.ANSWER, C.ORIGINAL_ANSWER)}


def leftover_sources(column: str) -> tuple[str, ...]:
    """The fields a leftover `column` is filled from, in order."""
    return LEFTOVER_FROM.get(column, (column,))


def leftover_row(record: Mapping[str, Any]) -> dict[str, Any]:
    """A filtered or rejected row (LEFTOVER_COLUMNS), from a reader record or a placed
    outcome."""
    out: dict[str, Any] = {}
    for c in C.LEFTOVER_COLUMNS:
        out[c] = next((record[f] for f in leftover_sources(c) if record.get(f) is not None), None)
    return out


# ---------------------------------------------------------------- the tally

# Every row's final place is counted by these keys, over the placed outcomes and the reader's
# filtered and rejected records (which have no split, type or strategy: null).
TALLY_KEYS: tuple[str, ...] = (C.SOURCE, C.INPUT_FILE, C.STATUS, C.REASON, C.SPLIT,
                               C.ENTITY_TYPE, C.MATCH_STRATEGY)
INPUT_KEYS: tuple[str, ...] = (C.SOURCE, C.INPUT_FILE)


@dataclass(frozen=True)
class Tally:
    """Counts for the report: inputs per file, final place per file, successes by type."""

    inputs: list[InputCount]
    statuses: list[StatusCount]
    successes: list[SuccessCount]


def group_counts(rows: Iterable[Mapping[str, Any]], keys: Sequence[str]
                 ) -> list[tuple[tuple[Any, ...], int]]:
    """(values of `keys`, rows) for each distinct value: what Spark's groupBy().count() gives
    the job."""
    counts: dict[tuple[Any, ...], int] = {}
    for r in rows:
        k = tuple(r.get(c) for c in keys)
        counts[k] = counts.get(k, 0) + 1
    return list(counts.items())


def tally(input_groups: Iterable[tuple[Sequence[Any], int]],
          place_groups: Iterable[tuple[Sequence[Any], int]]) -> Tally:
    """The report's counts from the counts per INPUT_KEYS of the read records and per
    TALLY_KEYS of every row's final place."""
    statuses: list[StatusCount] = []
    successes: list[SuccessCount] = []
    for key, n in place_groups:
        row = dict(zip(TALLY_KEYS, key))
        ok = row[C.STATUS] == C.OK
        statuses.append((row[C.SOURCE], row[C.INPUT_FILE], row[C.STATUS],
                         None if ok else row[C.REASON], n))
        if ok:
            successes.append((row[C.SOURCE], row[C.SPLIT], row[C.ENTITY_TYPE],
                              row[C.MATCH_STRATEGY], n))
    inputs = [(source, path, n) for (source, path), n in input_groups]
    return Tally(inputs, statuses, successes)


def bounds_by_source(outcomes: Iterable[Mapping[str, Any]], cfg: Config) -> dict[str, Bounds]:
    """Each source's split bounds from all its successful outcomes at once (the reference;
    the job gets the same from `spark.actions.split_bounds`, bucket by bucket)."""
    keys: dict[str, list[tuple[int, str]]] = {}
    for o in outcomes:
        if o[C.STATUS] == C.OK:
            keys.setdefault(o[C.SOURCE], []).append((o[C.SPLIT_KEY], o[C.ID]))
    return {s: bounds_of_keys(k, cfg.limits.max_success.get(s, 0), cfg.split.train,
                              cfg.split.dev) for s, k in sorted(keys.items())}
