"""The single-process reference runner: the same core functions, no Spark.

    python -m faithqa_spark.reference --squad FILE --output DIR   (same flags as the job)

`run_reference` is the pipeline's specification, read top to bottom: every step is a core
call, and `faithqa_spark.spark.job.build_dataset` makes the same calls on DataFrames. Its
output must equal the Spark job's byte for byte; the tests compare them.
"""

from __future__ import annotations

if __name__ == "__main__":
    # before numpy and pyarrow are imported: NER runs faster single-threaded (threads.py)
    from faithqa_spark.threads import single_threaded_env
    single_threaded_env()

import logging  # noqa: E402 - after the environment is set
import sys
import time
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any

from faithqa_spark import PIPELINE_VERSION, errors, fs
from faithqa_spark import ner as fner
from faithqa_spark.cli import parse
from faithqa_spark.config import Config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core import fields as C
from faithqa_spark.core.bank_build import (context_mentions, count_mentions,
                                           distinct_contexts, run_bank)
from faithqa_spark.core.dedupe import mark_duplicates
from faithqa_spark.core.nearby import article_of, from_contexts, wanted
from faithqa_spark.core.outcomes import (INPUT_KEYS, TALLY_KEYS, bounds_by_source, dataset_row,
                                         group_counts, leftover_row, outcome_of, placed,
                                         run_index, tally)
from faithqa_spark.core.process import Provenance, entities_from_records
from faithqa_spark.core.quality_report import DATASET, INPUT, partial_counts, quality_sections
from faithqa_spark.core.report import build_report, ner_section
from faithqa_spark.inputs import InputFile, reader_settings
from faithqa_spark.local_outputs import (write_audit_and_analysis, write_bank, write_files,
                                         write_training)
from faithqa_spark.manifest import write_manifest
from faithqa_spark.runs import RunDir, RunResult, Stages, provenance_dict
from faithqa_spark.sources import read_file_part

log = logging.getLogger("faithqa_spark")


def read_inputs(cfg: Config, files: list[InputFile]) -> list[dict[str, Any]]:
    """Every record of every file, duplicates across and within files marked. Each file is
    streamed whole (`read_file_part`, part 0 of 1): the rows and record indexes the job's
    read tasks give, whatever parts they read the file in."""
    settings = reader_settings(cfg)
    qa: list[dict[str, Any]] = []
    for f in files:
        qa.extend(read_file_part(partial(fs.open_input, f.local), path=f.display,
                                 source=f.source, settings=settings))
    mark_duplicates(qa)
    return qa


def run_reference(cfg: Config, files: list[InputFile], output_dir: str | Path,
                  bank_dir: str | None = None) -> RunResult:
    """Run the whole pipeline in this process into DIR (a local path or a URI), with the
    same files and completion rule (`runs.RunDir`) as the Spark job."""
    run = RunDir(str(output_dir), publish=cfg.output.publish)
    # A bad --bank directory is reported before any work, as in the Spark job.
    given_bank = cbank.load(bank_dir, cfg.bank.types) if bank_dir else None
    started, stages = time.time(), Stages()

    qa = read_inputs(cfg, files)
    stages.done("read", f"{len(qa):,} records from {len(files)} file(s)")
    try:
        dest = run.root  # where files go; made only once every input file has parsed
        ok = [r for r in qa if r[C.STATUS] == C.OK]
        contexts = distinct_contexts(ok, cfg.bank)
        nlp = fner.load_ner(cfg.ner.model, cfg.ner.components)
        entities = dict(zip(contexts, fner.run_ner(
            nlp, [text for text, _ in contexts.values()], cfg.ner.batch_size)))
        stages.done("ner", f"{len(contexts):,} distinct contexts")

        mentions = {cid: context_mentions(entities[cid], in_bank, cfg.bank)
                    for cid, (_, in_bank) in contexts.items()}
        bank, bank_origin = run_bank(given_bank, bank_dir,
                                     lambda: count_mentions(mentions.values()), cfg.bank)
        write_bank(dest, bank)
        stages.done("bank", f"{sum(bank.counts().values()):,} entities")

        prov = Provenance(PIPELINE_VERSION, cfg.config_hash, fner.model_id(nlp))
        # each article's entities (core/nearby.py), once per (article, context), not per row
        pairs = {(a, r[C.CONTEXT_ID]) for r in ok if (a := article_of(r)) is not None}
        near = from_contexts(
            (a, ((m[C.ENTITY_TYPE], m[C.ENT_TEXT]) for m in mentions[cid])) for a, cid in pairs
        ) if wanted(cfg.substitution.policy) else None
        index = run_index(bank.entities, near)
        outcomes = [outcome_of(r, entities_from_records(entities[r[C.CONTEXT_ID]]), index,
                               cfg, prov, near) for r in ok]
        stages.done("process", f"{len(outcomes):,} rows matched, substituted and checked")

        bounds = bounds_by_source(outcomes, cfg)
        final = [placed(o, bounds) for o in outcomes]
        rejects = [r for r in qa if r[C.STATUS] != C.OK]
        dataset = [dataset_row(p) for p in final if p[C.STATUS] == C.OK]
        leftovers = [leftover_row(r) for r in chain(rejects, final) if r[C.STATUS] != C.OK]
        stages.done("split")

        counts = tally(group_counts(qa, INPUT_KEYS), group_counts(chain(final, rejects),
                                                                  TALLY_KEYS))
        sections = quality_sections(chain(partial_counts(INPUT, ok),
                                          partial_counts(DATASET, dataset)), cfg)
        stages.done("audit")
        report = build_report(
            counts.inputs, counts.statuses, counts.successes, bank_counts=bank.counts(),
            bank_origin=bank_origin, provenance=provenance_dict(prov),
            ner=ner_section(len(contexts), len(contexts)), sections=sections)
        stages.done("report")

        write_training(cfg, dest, dataset, report)  # adds report.json's `training`
        stages.done("training")
        write_files(cfg, dest, dataset, leftovers, report)
        stages.done("write")
        write_audit_and_analysis(cfg, dest, dataset, report)
        stages.done("audit files")
        run.publish()
    except BaseException:
        run.discard()
        raise
    written = write_manifest(run, cfg, files, report, stages.seconds, started=started,
                   runner="reference (single process)", ner_model=prov.ner_model)
    return RunResult(str(output_dir), report, stages.seconds, written)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        run = parse(argv, "python -m faithqa_spark.reference")
        if run.ner_cache:
            log.warning("[faithqa] --ner-cache is a Spark/Delta feature; the reference runner "
                        "runs NER on every context")
        t = time.perf_counter()
        result = run_reference(run.cfg, run.files, run.output, run.bank_dir)
    except Exception as e:  # noqa: BLE001 - a user error is one line; a bug keeps its traceback
        return errors.report(e)
    print(f"reference run done in {time.perf_counter() - t:.1f}s: {result.output_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
