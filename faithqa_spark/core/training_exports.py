"""The training exports of one dataset row (sft/, dpo/, dialogues/), their file layout and
their counts: what both runners call, so they write the same bytes.

Layout (Hugging Face's shard names, `core.shards`: `output.shard_rows` records a file):
`DIR/<export>/<hub split>-<i>-of-<n>.jsonl`, e.g. `DIR/sft/validation-00000-of-00001.jsonl`,
with the Hub's split names (train, validation, test) in the file names and the dataset's own
(train, dev, test) in each record's `split`. Each file is ordered by record `id` (code point
order, which is also Spark's order of UTF-8 strings).

A runner (the Spark side shown; `training_writer.write_training_exports` is the same in one
process):
1. pools: `controls.pools_from_keyed` over the bounded pool rows (see core/controls.py),
   broadcast as plain data;
2. per row, in a mapInArrow over the dataset: `export_lines(row,
   abstention_context_for(row, pools, cfg), cfg, exports)`, schema
   `C.TRAINING_LINE_FIELDS`;
3. per (export, split): the `value`s of the lines with no `reason`, ordered by `id`, into
   its shards (`TRAINING_FILES`, `shard_path(export, split, i, n)`, written by the
   executors: `spark.shards`); a Delta table per export from
   `F.from_json(value, <EXPORT_FIELDS[export] as a Spark schema>)`;
4. `training_counts` over a groupBy(export, kind, split, reason).count() -> report.json's
   `training`; then `card.dataset_card(cfg, report, dataset_data_files, training)` ->
   DIR/README.md.
"""

from __future__ import annotations

import operator
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Collection, Iterable, Mapping

from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons as R
from faithqa_spark.core.controls import PoolKey, pick_abstention_context
from faithqa_spark.core.dialogues import dialogue_record
from faithqa_spark.core.exports import TRAINING, FileExport
from faithqa_spark.core.records import json_line
from faithqa_spark.core.training import control_kinds, dpo_record, examples, sft_record

SFT, DPO, DIALOGUES = "sft", "dpo", "dialogues"
EXPORTS = (SFT, DPO, DIALOGUES)  # the `output.formats` values of the record exports
CARD = "card"  # the `output.formats` value of DIR/README.md
EXPORT_FIELDS: dict[str, list[tuple[str, str]]] = {
    SFT: C.SFT_FIELDS, DPO: C.DPO_FIELDS, DIALOGUES: C.DIALOGUE_FIELDS}
EXPORT_KINDS: dict[str, tuple[str, ...]] = {
    SFT: (C.COUNTERFACTUAL, C.FACTUAL, C.ABSTENTION),
    DPO: (C.COUNTERFACTUAL, C.FACTUAL, C.ABSTENTION),
    DIALOGUES: (C.CLARIFICATION, C.CORRECTION),
}


# Each export's files: its records' JSON lines (`value`, made per row by `export_lines`)
# per split, in shards (core/exports.py, core/shards.py).
TRAINING_FILES: dict[str, FileExport] = {
    e: FileExport(e, TRAINING, C.SPLIT, C.SPLITS, e, ".jsonl", (C.VALUE,),
                  operator.itemgetter(C.VALUE)) for e in EXPORTS}


def shard_path(export: str, split: str, index: int = 0, count: int = 1) -> str:
    """Path of one shard of an export's split, relative to the output directory."""
    return TRAINING_FILES[export].file(split, index, count)


def data_files_pattern(export: str, split: str) -> str:
    """The glob the card declares for an export's split (matches every shard)."""
    return TRAINING_FILES[export].pattern(split)


def record_line(export: str, record: Mapping[str, Any]) -> str:
    """One JSONL line of an export record, its fields in the export's order."""
    return json_line(record, [name for name, _ in EXPORT_FIELDS[export]])


def selected_exports(formats: Collection[str]) -> list[str]:
    return [e for e in EXPORTS if e in formats]


def abstention_context_for(row: Mapping[str, Any], pools: Mapping[PoolKey, list[str]],
                           cfg: Config) -> str | None:
    """The row's abstention context, or None when the row draws no abstention control (or
    no context of its pool qualifies). `pools` from `controls.build_pools` (or, on Spark,
    the broadcast pools: see core/controls.py)."""
    if C.ABSTENTION not in control_kinds(cfg.pipeline.seed, row[C.ID], cfg.training):
        return None
    return pick_abstention_context(row, pools.get((row[C.SOURCE], row[C.SPLIT]), []),
                                   cfg.pipeline.seed)


@dataclass
class RowRecords:
    """Everything one dataset row gives the training exports."""
    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # export -> records
    skipped: list[tuple[str, str, str]] = field(default_factory=list)  # (export, reason, kind)


def row_records(row: Mapping[str, Any], abstention_context: str | None, cfg: Config,
                exports: Collection[str]) -> RowRecords:
    """The records of one dataset row (with `split` set) for the selected exports, and what
    was drawn but skipped. Pure: the per-row function of both runners."""
    t, seed = cfg.training, cfg.pipeline.seed
    out = RowRecords({e: [] for e in selected_exports(exports)})
    if SFT in exports or DPO in exports:
        exs, missing = examples(row, abstention_context, t, seed)
        for export in (e for e in (SFT, DPO) if e in exports):
            out.skipped.extend((export, R.ABSTENTION_NO_CONTEXT, k) for k in missing)
            for ex in exs:
                rec = sft_record(row, ex, t) if export == SFT else dpo_record(row, ex, t)
                if rec is None:
                    out.skipped.append((export, R.SAME_ANSWER, ex.kind))
                else:
                    out.records[export].append(rec)
    if DIALOGUES in exports:
        dia = dialogue_record(row, t, seed)
        if isinstance(dia, tuple):
            out.skipped.append((DIALOGUES, *dia))
        elif dia is not None:
            out.records[DIALOGUES].append(dia)
    return out


def export_lines(row: Mapping[str, Any], abstention_context: str | None, cfg: Config,
                 exports: Collection[str]) -> list[dict[str, Any]]:
    """`row_records` as flat rows of `C.TRAINING_LINE_FIELDS`, the output of the Spark side's
    mapInArrow and the writer's unit: a record is (export, id, kind, split, reason None,
    value = its JSON line); a skipped draw is (export, row id, kind, split, reason, value
    None)."""
    rr = row_records(row, abstention_context, cfg, exports)
    out = [{C.EXPORT: export, C.ID: rec[C.ID], C.KIND: rec[C.KIND], C.SPLIT: rec[C.SPLIT],
            C.REASON: None, C.VALUE: record_line(export, rec)}
           for export, recs in rr.records.items() for rec in recs]
    out += [{C.EXPORT: export, C.ID: row[C.ID], C.KIND: kind, C.SPLIT: row[C.SPLIT],
             C.REASON: reason, C.VALUE: None} for export, reason, kind in rr.skipped]
    return out


LineCount = tuple[str, str, str, str | None, int]  # (export, kind, split, reason, n)


def training_counts(groups: Iterable[LineCount], exports: Collection[str]) -> dict[str, Any]:
    """report.json's `training` section from the export lines counted by (export, kind,
    split, reason) (Spark: a groupBy of those four columns): per export, records per kind
    and split (zeros included), a total per split, and the skipped draws per reason and
    kind."""
    n: dict[tuple[str, str, str], int] = defaultdict(int)
    skips: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for export, kind, split, reason, k in groups:
        if reason is None:
            n[(export, kind, split)] += k
        else:
            skips[export][reason][kind] = skips[export][reason].get(kind, 0) + k
    out: dict[str, Any] = {}
    for export in selected_exports(exports):
        kinds = {kind: {s: n[(export, kind, s)] for s in C.SPLITS}
                 for kind in EXPORT_KINDS[export]}
        out[export] = {
            "kinds": kinds,
            "splits": {s: sum(kinds[k][s] for k in kinds) for s in C.SPLITS},
            "skipped": {reason: dict(sorted(by_kind.items()))
                        for reason, by_kind in sorted(skips[export].items())},
        }
    return out
