"""The mapInArrow task functions. Each factory returns a picklable closure over plain data;
heavy objects (the spaCy model, the sampling index) are built lazily once per Python worker.
Every row-level decision is a core call; these only move Arrow columns in and out."""

from __future__ import annotations

import gc
from functools import partial
from typing import Any, Callable, Iterator, Sequence

import pyarrow as pa

from faithqa_spark import fs
from faithqa_spark import ner as fner
from faithqa_spark.arrow import (arrow_batch, arrow_batches, arrow_schema, arrow_type,
                                 batch_rows, pylist)
from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core import nearby
from faithqa_spark.core.audit_summary import audit_key
from faithqa_spark.core.bank_build import context_mentions
from faithqa_spark.core.dedupe import mark_in_order
from faithqa_spark.core.outcomes import outcome_of, run_index
from faithqa_spark.core.process import PASS_THROUGH, ROW_INPUT, Provenance, entities_from_records
from faithqa_spark.core.quality_report import partial_counts
from faithqa_spark.core.sampling import SamplingIndex
from faithqa_spark.core.training_exports import abstention_context_for, export_lines
from faithqa_spark.inputs import ReadPart, reader_settings
from faithqa_spark.sources import read_file_part

Task = Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]
# the partial counts of report.json's audit and analysis (core.quality_report.PartialCount)
COUNT_FIELDS = [("kind", C.STRING), ("k1", C.STRING), ("k2", C.STRING), ("k3", C.STRING),
                ("n", C.LONG)]
COUNT_COLUMNS = [name for name, _ in COUNT_FIELDS]
AUDIT_KEY = "audit_key"



def read_task(parts: Sequence[ReadPart], cfg: Config, storage: fs.Settings = ()) -> Task:
    """Row `i` of the input (`spark.range`) -> the QA rows (QA_FIELDS) of read task
    `parts[i]`: its part of one input file, streamed from the file's filesystem by the
    executor (`sources.read_file_part`), duplicates within the part marked
    (`core.dedupe.mark_in_order`; across parts and files the job marks them after)."""
    settings = reader_settings(cfg, storage)

    def read(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        def rows() -> Iterator[dict[str, Any]]:
            for batch in batches:
                for i in batch.column(0).to_pylist():
                    p = parts[i]
                    yield from mark_in_order(read_file_part(
                        partial(fs.open_input, p.file.local, storage), path=p.file.display,
                        source=p.file.source, settings=settings, part=p.part,
                        n_parts=p.n_parts))
        yield from arrow_batches(rows(), C.QA_FIELDS)

    return read


def warm_task(model: str, components: list[str]) -> Task:
    """Loads the NER model in the worker and passes its rows on."""
    def warm(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            try:
                fner.load_ner(model, components)
            except Exception:  # noqa: BLE001 - NER loads again, and reports a failure there
                pass
            yield batch

    return warm


def ner_task(cfg: Config) -> Task:
    """NER, and the bank's mentions of each context while its entities are Python objects
    anyway (a separate pass would convert every entity from Arrow again)."""
    model, components, batch_size = cfg.ner.model, cfg.ner.components, cfg.ner.batch_size
    bank_cfg = cfg.bank
    entity_type, mention_type = arrow_type(C.ENTITY_LIST), arrow_type(C.MENTION_LIST)

    def ner(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            nlp = fner.load_ner(model, components)  # once per worker; none for no rows
            ents = fner.run_ner(nlp, batch.column(C.CONTEXT).to_pylist(), batch_size)
            mentions = [context_mentions(e, flag, bank_cfg)
                        for e, flag in zip(ents, batch.column(C.IN_BANK).to_pylist())]
            # the context columns pass through untouched; only the entities are new
            yield pa.RecordBatch.from_arrays(
                [*batch.columns, pa.array(ents, type=entity_type),
                 pa.array(mentions, type=mention_type)],
                names=[*batch.schema.names, C.ENTITIES, C.BANK_MENTIONS])

    return ner


def mentions_task(cfg: Config) -> Task:
    """The bank mentions of entities that did not come from `ner_task` (the NER cache)."""
    bank_cfg = cfg.bank
    mention_type = arrow_type(C.MENTION_LIST)

    def with_mentions(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            mentions = [context_mentions(e, flag, bank_cfg) for e, flag in
                        zip(pylist(batch.column(C.ENTITIES)),
                            pylist(batch.column(C.IN_BANK)))]
            yield pa.RecordBatch.from_arrays(
                [*batch.columns, pa.array(mentions, type=mention_type)],
                names=[*batch.schema.names, C.BANK_MENTIONS])

    return with_mentions


_index_cache: dict[tuple[str, str | None], SamplingIndex] = {}


def worker_index(key: tuple[str, str | None], build: Callable[[], SamplingIndex]
                 ) -> SamplingIndex:
    """The worker process's index for `key` (bank and articles' mapping), built once per
    process by `build()`. A module function, so that a task calls it by reference: a
    task's closure is pickled by value with a copy of the module globals it names, so a
    cache it named itself would be a fresh dict in every task, and every task rebuilt the
    index and its lazily built pools (SQuAD train, local[2]: four builds where two do)."""
    index = _index_cache.get(key)
    if index is None:
        index = _index_cache[key] = build()
        keep_for_good()
    return index


def keep_for_good() -> None:
    """Take every object the worker holds now out of the cyclic garbage collector's
    generations (`gc.freeze`). A worker keeps the sampling index, its lazily built pools
    and the lexicons for every later task: about two million tracked objects on SQuAD
    train, which every full collection walked, and each later stage's rows set off one
    every half second or so. Counted with a `gc.callbacks` hook in the workers (SQuAD train,
    local[2], the job run from the NER cache): 57 full collections of 0.3-0.7 s, 21.5 s of
    worker time that freed nothing (7 s for `paper`, whose index builds no pools); with
    this, about 1 s per worker for every collection of the job. Frozen objects are still
    freed by reference counting, as everything the tasks make is; only cyclic garbage
    already made when it is called stays (those collections found none)."""
    gc.freeze()


def _as_type(array: pa.Array, type_: pa.DataType) -> pa.Array:
    # Spark may hand strings over as large_string (spark.sql.execution.arrow.useLargeVarTypes)
    return array if array.type == type_ else array.cast(type_)


def process_task(cfg: Config, bank_bc: Any, bank_key: str, prov: Provenance,
                 nearby_bc: Any = None) -> Task:
    """QA rows joined with their context's entities -> one outcome per row (OUTCOME_FIELDS),
    by `core.outcomes.outcome_of`, with the articles' entities of `nearby_bc` (or none)."""
    computed = [(name, arrow_type(kind)) for name, kind in C.OUTCOME_FIELDS
                if name not in PASS_THROUGH]
    outcome_schema = arrow_schema(C.OUTCOME_FIELDS)
    # the mapping's digest, taken here on the driver, where its value is at hand
    near_key = nearby.fingerprint(nearby_bc.value) if nearby_bc is not None else None

    def process(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        # One index per worker, bank and articles' mapping: sorting the bank by length is
        # not per-task work (a worker may serve several jobs of one session)
        near = nearby_bc.value if nearby_bc is not None else None
        index = worker_index((bank_key, near_key), lambda: run_index(bank_bc.value, near))
        for batch in batches:
            cols = {name: pylist(batch.column(name)) for name in ROW_INPUT}
            ids = pylist(batch.column(C.CONTEXT_ID))
            # Rows of one context arrive together (the join is on context_id): its
            # entities are converted once, not once per question.
            firsts = first_of_runs(ids)
            records = dict(zip(firsts, pylist(batch.column(C.ENTITIES).take(firsts))))
            outcomes = []
            last_ents: list = []
            for i, cid in enumerate(ids):
                if i in records:
                    if records[i] is None:  # a lost NER row must be loud, never a filter
                        raise RuntimeError(f"no NER result for context {cid}")
                    last_ents = entities_from_records(records[i])
                row = {name: values[i] for name, values in cols.items()}
                outcomes.append(outcome_of(row, last_ents, index, cfg, prov, near))
            # one outcome per row, in order: the copied fields are the input's own Arrow
            # columns, so only what the core computed is converted from Python
            arrays = {name: batch.column(from_row) for name, from_row in PASS_THROUGH.items()}
            arrays.update({name: pa.array([o[name] for o in outcomes], type=t)
                           for name, t in computed})
            yield pa.RecordBatch.from_arrays(
                [_as_type(arrays[f.name], f.type) for f in outcome_schema], schema=outcome_schema)
            # the pools and lexicons this batch built are the worker's for good
            keep_for_good()

    return process


def first_of_runs(values: Sequence[Any]) -> list[int]:
    """The index of each value that differs from the one before it (the first row of each
    run of equal values)."""
    return [i for i, v in enumerate(values) if i == 0 or v != values[i - 1]]


def lines_task(serialise: Callable[[dict[str, Any]], str]) -> Task:
    """Each row -> one line of text (column `value`) by `serialise`."""
    def lines(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            yield pa.RecordBatch.from_pydict(
                {"value": [serialise(r) for r in batch_rows(batch)]})

    return lines


def apply_task(fn: Callable[..., str], args: list[str], name: str) -> Task:
    """Each row with a string column `name` added: `fn` (a core function) of its `args`
    columns. For few rows: every value crosses into Python."""
    def apply(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            values = [fn(*v) for v in zip(*(pylist(batch.column(a)) for a in args))]
            yield pa.RecordBatch.from_arrays([*batch.columns, pa.array(values, pa.string())],
                                             names=[*batch.schema.names, name])

    return apply


def training_task(cfg: Config, pools_bc: Any, exports: list[str]) -> Task:
    """Dataset rows -> their training-export lines (TRAINING_LINE_FIELDS) by
    `core.training_exports.export_lines`, each row's abstention context drawn from the
    broadcast pools."""
    def lines(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        pools = pools_bc.value

        def rows() -> Iterator[dict[str, Any]]:
            for batch in batches:
                for row in batch_rows(batch):
                    yield from export_lines(row, abstention_context_for(row, pools, cfg), cfg,
                                            exports)
        yield from arrow_batches(rows(), C.TRAINING_LINE_FIELDS)

    return lines


def quality_counts_task(kind: str) -> Task:
    """Rows of `kind` (`core.quality_report.FIELDS[kind]` columns) -> their partial counts
    for report.json's audit and analysis sections, one set per task
    (`core.quality_report.partial_counts`); the job sums them in one aggregation."""
    def counts(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        rows = (r for batch in batches for r in batch_rows(batch))
        out = [dict(zip(COUNT_COLUMNS, c)) for c in partial_counts(kind, rows)]
        yield arrow_batch(out, COUNT_FIELDS)

    return counts


def audit_key_task(seed: int) -> Task:
    """Dataset ids -> (id, `core.audit_summary.audit_key`): the audit sample's rank."""
    def keys(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            ids = pylist(batch.column(C.ID))
            yield pa.RecordBatch.from_arrays(
                [pa.array(ids, pa.string()), pa.array([audit_key(seed, i) for i in ids],
                                                      pa.int64())], names=[C.ID, AUDIT_KEY])

    return keys
