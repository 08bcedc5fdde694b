"""The single-process reference runner: the same core functions, no Spark.

    python -m faithqa_spark.reference --squad FILE --output DIR   (same flags as the job)

Its output must equal the Spark job's byte for byte; the tests compare them.
"""

from __future__ import annotations

if __name__ == "__main__":
    # before numpy and pyarrow are imported: NER runs faster single-threaded (threads.py)
    from faithqa_spark.threads import single_threaded_env
    single_threaded_env()

import logging  # noqa: E402 - after the environment is set
import shutil
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from faithqa_spark import PIPELINE_VERSION
from faithqa_spark import io as fio
from faithqa_spark import ner as fner
from faithqa_spark.cli import parse
from faithqa_spark.config import Config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons, splitting
from faithqa_spark.core.dedupe import mark_duplicates, number_records
from faithqa_spark.core.process import Provenance, entities_from_records, process_row
from faithqa_spark.core.records import (dataset_row, json_line, leftover_row,
                                        squad_document_frame, squad_paragraph)
from faithqa_spark.core.report import build_report
from faithqa_spark.core.sampling import SamplingIndex
from faithqa_spark.inputs import InputFile, reader_settings
from faithqa_spark.arrow import arrow_batch, arrow_schema
from faithqa_spark.manifest import build_manifest
from faithqa_spark.runs import RunResult, Stages, new_staging, provenance_dict, publish
from faithqa_spark.sources import read_file

log = logging.getLogger("faithqa_spark")


def run_reference(cfg: Config, files: list[InputFile], output_dir: str | Path,
                  bank_dir: str | None = None) -> RunResult:
    out = Path(output_dir)
    # A bad --bank directory is reported before any work, as in the Spark job.
    given_bank = cbank.load(bank_dir, cfg.bank.types) if bank_dir else None
    started = time.time()
    stages = Stages()
    settings = reader_settings(cfg)
    qa: list[dict[str, Any]] = []
    for f in files:
        qa.extend(number_records(read_file(Path(f.local).read_bytes(), path=f.display,
                                           source=f.source, settings=settings)))
    mark_duplicates(qa)
    input_counts = Counter((r[C.SOURCE], r[C.INPUT_FILE]) for r in qa)
    stages.done("read", f"{len(qa):,} records from {len(files)} file(s)")
    staging = new_staging(out)  # only once every input file has parsed

    ok = [r for r in qa if r[C.STATUS] == C.OK]
    contexts = {r[C.CONTEXT_ID]: r[C.CONTEXT] for r in ok}
    nlp = fner.load_ner(cfg.ner.model, cfg.ner.components)
    ids = list(contexts)
    ents = dict(zip(ids, fner.run_ner(nlp, [contexts[i] for i in ids], cfg.ner.batch_size)))
    stages.done("ner", f"{len(ids):,} distinct contexts")

    if given_bank is not None:
        bank, bank_origin = given_bank, str(bank_dir)
    else:
        bank_ids = {r[C.CONTEXT_ID] for r in ok if r[C.SOURCE] in cfg.bank.sources}
        mentions = Counter(m for cid in bank_ids for m in cbank.bank_mentions(ents[cid], cfg.bank))
        bank = cbank.assemble(((t, s, n) for (t, s), n in mentions.items()), cfg.bank)
        bank_origin = cbank.built_origin(cfg.bank)
    cbank.save(bank, staging / "entity_bank")
    stages.done("bank", f"{sum(bank.counts().values()):,} entities")

    prov = Provenance(PIPELINE_VERSION, cfg.config_hash, fner.model_id(nlp))
    index = SamplingIndex.from_bank(bank.entities)
    outcomes = [process_row(r, entities_from_records(ents[r[C.CONTEXT_ID]]), index, cfg, prov)
                for r in ok]
    stages.done("process", f"{len(outcomes):,} rows matched, substituted and checked")

    labels: dict[str, str] = {}
    for source in sorted({o[C.SOURCE] for o in outcomes}):
        keys = [(o[C.SPLIT_KEY], o[C.ID]) for o in outcomes
                if o[C.SOURCE] == source and o[C.STATUS] == C.OK]
        labels.update(splitting.label_sorted(keys, cfg.limits.max_success.get(source, 0),
                                             cfg.split.train, cfg.split.dev))
    dataset: list[dict[str, Any]] = []
    leftovers = [leftover_row(r) for r in qa if r[C.STATUS] != C.OK]
    for o in outcomes:
        label = labels.get(o[C.ID])
        if label in C.SPLITS:
            dataset.append(dataset_row(o, label))
        else:
            if label == splitting.OVER_CAP:
                o = {**o, C.STATUS: C.FILTERED, C.REASON: reasons.OVER_SOURCE_CAP}
            leftovers.append(leftover_row(o))
    stages.done("split")

    status_counts = Counter((r[C.SOURCE], r[C.INPUT_FILE], r[C.STATUS], r[C.REASON])
                            for r in leftovers)
    status_counts.update((o[C.SOURCE], o[C.INPUT_FILE], C.OK, None) for o in outcomes
                         if labels.get(o[C.ID]) in C.SPLITS)
    success_counts = Counter((r[C.SOURCE], r[C.SPLIT], r[C.ENTITY_TYPE], r[C.MATCH_STRATEGY])
                             for r in dataset)
    report = build_report(
        [(*k, n) for k, n in input_counts.items()],
        [(*k, n) for k, n in status_counts.items()],
        [(*k, n) for k, n in success_counts.items()],
        bank_counts=bank.counts(), bank_origin=bank_origin, provenance=provenance_dict(prov))
    report["ner"] = {"distinct_contexts": len(ids), "sent_to_ner": len(ids), "from_cache": 0}
    stages.done("report")

    write_outputs(cfg, staging, dataset, leftovers, report)
    stages.done("write")
    publish(staging, out)
    shutil.rmtree(staging, ignore_errors=True)
    fio.write_json(out / "manifest.json", build_manifest(
        cfg, files, report, stages.seconds, runner="reference (single process)",
        ner_model=prov.ner_model, started=started))
    return RunResult(out, report, stages.seconds)


def write_outputs(cfg: Config, staging: Path, dataset: list[dict[str, Any]],
                  leftovers: list[dict[str, Any]], report: dict[str, Any]) -> None:
    """The file outputs, with the same serialisers and order (by id) as the Spark job."""
    formats = set(cfg.output.formats)
    if "delta" in formats:
        log.warning("[faithqa] the reference runner writes no Delta tables (no Spark); "
                    "the other outputs are the same as the job's")
    dataset.sort(key=lambda r: r[C.ID])
    leftovers.sort(key=lambda r: r[C.ID])
    for split in C.SPLITS:
        rows = [r for r in dataset if r[C.SPLIT] == split]
        if "jsonl" in formats:
            fio.write_lines_atomic(staging / "jsonl" / f"{split}.jsonl",
                                   (json_line(r, C.DATASET_COLUMNS) for r in rows))
        if "parquet" in formats:
            d = staging / "parquet" / split
            d.mkdir(parents=True, exist_ok=True)
            pq.write_table(pa.Table.from_batches([arrow_batch(rows, C.DATASET_FIELDS)])
                           if rows else arrow_schema(C.DATASET_FIELDS).empty_table(),
                           d / "part-00000.parquet")
        if "squad" in formats:
            header, sep, footer = squad_document_frame(split)
            fio.write_text_atomic(staging / "squad" / f"{split}.json",
                                  header + sep.join(squad_paragraph(r) for r in rows) + footer)
    for status in (C.FILTERED, C.REJECTED):
        fio.write_lines_atomic(staging / status / f"{status}.jsonl",
                               (json_line(r, C.LEFTOVER_COLUMNS) for r in leftovers
                                if r[C.STATUS] == status))
    fio.write_json(staging / "report.json", report)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    run = parse(argv, "python -m faithqa_spark.reference")
    if run.ner_cache:
        log.warning("[faithqa] --ner-cache is a Spark/Delta feature; the reference runner "
                    "runs NER on every context")
    t = time.perf_counter()
    result = run_reference(run.cfg, run.files, run.output, run.bank_dir)
    print(f"reference run done in {time.perf_counter() - t:.1f}s: {result.output_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
