"""The Spark job: `build_dataset`, the pipeline's stages in order. Each stage is one named
function below; `faithqa_spark.reference.run_reference` makes the same core calls on lists,
and the two must give the same bytes."""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from pyspark import InheritableThread
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from faithqa_spark import PIPELINE_VERSION, fs
from faithqa_spark import ner as fner
from faithqa_spark.config import Config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core import fields as C
from faithqa_spark.core.bank import EntityBank
from faithqa_spark.core.bank_build import run_bank
from faithqa_spark.core.process import Provenance
from faithqa_spark.core.quality_report import quality_sections
from faithqa_spark.core.report import build_report, ner_section
from faithqa_spark.core.training_exports import selected_exports
from faithqa_spark.inputs import InputFile, read_parts
from faithqa_spark.manifest import write_manifest
from faithqa_spark.runs import RunResult, Stages, provenance_dict
from faithqa_spark.spark import actions, tasks
from faithqa_spark.spark import training as ST
from faithqa_spark.spark import transforms as T
from faithqa_spark.spark.ner_cache import cached_entities, merge_into_cache, ner_table
from faithqa_spark.spark.outputs import OutputPlan, bank_table


def build_dataset(spark: SparkSession, cfg: Config, files: list[InputFile], output_dir: str | Path,
                  bank_dir: str | None = None, ner_cache: str | None = None) -> RunResult:
    """Run the whole pipeline. Writes, under DIR: delta/{dataset,entity_bank,ner,filtered,
    rejected,sft,dpo,dialogues} (when "delta" is among output.formats), the exports jsonl/,
    parquet/, squad/, sft/, dpo/, dialogues/ and the card README.md (as selected),
    entity_bank/, filtered/, rejected/, audit/sample.{jsonl,html}, report/ (index.html and
    its charts), report.json and, last, manifest.json (the run is complete when it is there:
    runs.py). DIR is a local path or a URI of any filesystem Spark and `fs.py` reach; the
    exports are written there by the executors, in shards."""
    out, started, stages = str(output_dir), time.time(), Stages()
    with OutputPlan(spark, out, cfg, ner_cache=ner_cache is not None) as plan:
        # a bad --bank directory is reported before any work, not after NER
        given_bank = (cbank.load(bank_dir, cfg.bank.types, fs.spark_hadoop_settings(spark))
                      if bank_dir else None)
        # unless a cache may hold every context, the NER model loads during the read
        with warm_workers(spark, cfg, busy=len(files), enabled=ner_cache is None):
            qa, inputs = read_stage(spark, plan, cfg, files, stages)
            ner = ner_stage(spark, plan, cfg, qa, ner_cache, stages)
        qa_ok = qa.filter(F.col(C.STATUS) == C.OK)
        # the articles' entities, which the process stage needs, are collected meanwhile
        with actions.in_background(spark, "the articles' entities",
                                   lambda: actions.nearby_mapping(qa_ok, ner.df, cfg)) as near:
            bank, bank_origin = bank_stage(plan, cfg, given_bank, bank_dir, ner, stages)
            prov = Provenance(PIPELINE_VERSION, cfg.config_hash, ner.model_id)
            outcomes = process_stage(spark, plan, cfg, qa_ok, ner.df, near(), bank, prov,
                                     stages)
        final = split_stage(outcomes, cfg, stages)
        # reconciled before anything is published: a lost row stops the job here
        report = report_stage(final, qa, inputs, bank, bank_origin, prov, ner, stages,
                              sections=quality_stage(final, qa, cfg, stages))
        training_stage(spark, plan, cfg, final, report, stages)
        write_stage(spark, plan, final, qa, ner, bank, bank_origin, report, stages)
        audit_files_stage(plan, final, report, cfg, stages)  # after training: the final report
        ST.write_card(plan, cfg, report)  # last: the card shows the finished report
        delta_tables = plan.publish()
    written = write_manifest(plan.run, cfg, files, report, stages.seconds, started=started,
                   runner=f"spark {spark.version} ({spark.sparkContext.master})",
                   ner_model=prov.ner_model,
                   extra={"ner_cache": ner_cache, "delta_tables": delta_tables})
    return RunResult(out, report, stages.seconds, written)


def read_stage(spark: SparkSession, plan: OutputPlan, cfg: Config, files: list[InputFile],
               stages: Stages) -> tuple[DataFrame, list]:
    """Every input record (QA_SCHEMA), duplicates within and across files marked; kept, with
    the records read per file."""
    parts = read_parts(files, cfg.input.read_part_bytes, fs.spark_hadoop_settings(spark))
    parsed = plan.keep(T.read_qa(spark, files, cfg, parts))  # duplicates within each part marked
    qa, dups = parsed, None
    if len(parts) > 1:
        # duplicates across parts and files; most runs have none, and then neither the join
        # nor a second stored copy of every record is needed
        dups = plan.keep(T.duplicate_firsts(parsed))
        if actions.materialise(dups):  # runs the read
            qa = plan.keep(T.with_duplicates_marked(parsed, dups))
    inputs = actions.input_counts(qa)
    if qa is not parsed:
        plan.release(parsed)  # qa is materialised; the parse was needed twice, not after
    if dups is not None:
        plan.release(dups)
    stages.done("read", f"{sum(n for _, n in inputs):,} records from {len(files)} file(s) "
                        f"in {len(parts)} read task(s)")
    return qa, inputs


@dataclass(frozen=True)
class NerResult:
    df: DataFrame  # NER_SCHEMA, one row per distinct context, persisted
    contexts: int
    sent_to_ner: int
    model_name: str
    model_version: str
    model_id: str


def ner_stage(spark: SparkSession, plan: OutputPlan, cfg: Config, qa: DataFrame,
              ner_cache: str | None, stages: Stages) -> NerResult:
    """NER once per distinct context of the answerable rows, except those the cache knows."""
    contexts = plan.keep(T.distinct_contexts(qa.filter(F.col(C.STATUS) == C.OK), cfg))
    meta = fner.model_meta(cfg.ner.model)
    name, version = fner.model_name_version(meta)
    cached = (cached_entities(spark, ner_cache, contexts, name, version, cfg)
              if ner_cache else None)
    todo = contexts if cached is None else plan.keep(
        contexts.join(cached.select(C.CONTEXT_ID), C.CONTEXT_ID, "left_anti"))
    n_parts = actions.ner_partitions(spark, todo, cfg)
    fresh = plan.keep(T.with_entities(todo, cfg, n_parts))
    n_fresh = actions.materialise(fresh)  # NER runs here, once
    ner_df = fresh if cached is None else plan.keep(cached.unionByName(fresh))
    n_contexts = n_fresh if cached is None else actions.materialise(ner_df)
    if ner_cache and n_fresh:
        merge_into_cache(spark, ner_cache, ner_table(fresh, name, version))
    stages.done("ner", f"{n_contexts:,} distinct contexts, {n_fresh:,} sent to NER in "
                       f"{n_parts} partitions" + (f" ({n_contexts - n_fresh:,} from the cache)"
                                                  if ner_cache else ""))
    return NerResult(ner_df, n_contexts, n_fresh, name, version, fner.format_model_id(meta))


def bank_stage(plan: OutputPlan, cfg: Config, given: EntityBank | None, given_dir: str | None,
               ner: NerResult, stages: Stages) -> tuple[EntityBank, str]:
    """The run's bank (`core.bank_build.run_bank`), saved in the paper's format."""
    bank, origin = run_bank(given, given_dir, lambda: actions.mention_counts(ner.df), cfg.bank)
    plan.write_bank(bank)
    stages.done("bank", f"{sum(bank.counts().values()):,} entities")
    return bank, origin


def process_stage(spark: SparkSession, plan: OutputPlan, cfg: Config, qa_ok: DataFrame,
                  ner_df: DataFrame, near: Mapping[str, Any] | None, bank: EntityBank,
                  prov: Provenance, stages: Stages) -> DataFrame:
    """Every answerable row's outcome (`core.outcomes.outcome_of`), kept; `near`: the
    articles' entities (`actions.nearby_mapping`)."""
    outcomes = plan.keep(T.with_outcomes(qa_ok, ner_df, cfg, actions.broadcast_bank(spark, bank),
                                         bank, prov, actions.broadcast_nearby(spark, near)))
    n = actions.materialise(outcomes)
    stages.done("process", f"{n:,} rows matched, substituted and checked")
    return outcomes


def split_stage(outcomes: DataFrame, cfg: Config, stages: Stages) -> DataFrame:
    """Every outcome placed (`core.outcomes.placed`): its split, and over the cap filtered."""
    final = T.placed(outcomes, actions.split_bounds(outcomes, cfg))
    stages.done("split")
    return final


def quality_stage(final: DataFrame, qa: DataFrame, cfg: Config, stages: Stages) -> dict:
    """report.json's `audit` and `analysis` sections (`core.quality_report`), from one
    aggregation of per-partition counts."""
    sections = quality_sections(actions.quality_counts(T.dataset(final), qa), cfg)
    stages.done("audit")
    return sections


def report_stage(final: DataFrame, qa: DataFrame, inputs: list, bank: EntityBank,
                 bank_origin: str, prov: Provenance, ner: NerResult, stages: Stages,
                 sections: dict | None = None) -> dict:
    """report.json's content (`core.report.build_report`) from the tally of every row's
    place, with `sections` added; raises ReconciliationError when a row was lost."""
    counts = actions.final_tally(final, qa, inputs)
    report = build_report(counts.inputs, counts.statuses, counts.successes,
                          bank_counts=bank.counts(), bank_origin=bank_origin,
                          provenance=provenance_dict(prov),
                          ner=ner_section(ner.contexts, ner.sent_to_ner), sections=sections)
    stages.done("report")
    return report


def training_stage(spark: SparkSession, plan: OutputPlan, cfg: Config, final: DataFrame,
                   report: dict, stages: Stages) -> None:
    """The training exports (sft/, dpo/, dialogues/ as selected): their lines made and
    counted into report.json's `training` now, their files and tables written with the
    others (`spark.training`)."""
    exports = selected_exports(plan.formats)
    if not exports:
        return
    lines = plan.keep(ST.export_lines(spark, T.dataset(final), cfg, exports,
                                       ST.pool_groups(report)))
    report["training"] = ST.line_counts(lines, exports)
    ST.add_outputs(plan, lines, exports)
    stages.done("training", ", ".join(
        f"{e} {sum(report['training'][e]['splits'].values()):,}" for e in exports))


def write_stage(spark: SparkSession, plan: OutputPlan, final: DataFrame, qa: DataFrame,
                ner: NerResult, bank: EntityBank, bank_origin: str, report: dict,
                stages: Stages) -> None:
    """The dataset, the leftovers, the NER and bank tables and report.json."""
    plan.add_table("ner", ner_table(ner.df, ner.model_name, ner.model_version))
    plan.add_table("entity_bank", bank_table(spark, bank, bank_origin))
    plan.write(T.dataset(final), T.leftovers(final, qa))
    plan.write_report(report)
    stages.done("write")


def audit_files_stage(plan: OutputPlan, final: DataFrame, report: dict, cfg: Config,
                      stages: Stages) -> None:
    """The audit sample and the analysis report (HTML and charts)."""
    plan.write_audit_and_analysis(T.dataset(final), report, cfg.pipeline.seed)
    stages.done("audit files")


@contextmanager
def warm_workers(spark: SparkSession, cfg: Config, busy: int, enabled: bool = True
                 ) -> Iterator[None]:
    """Load the NER model, during the block, in Python workers on the cores that the read
    leaves idle (`busy` read tasks), from a driver thread, so that NER does not start with
    every worker loading it. Workers are reused (spark.python.worker.reuse) and keep their
    model; the warm-up is a mapInArrow like NER, so that it runs in the same pool of workers.
    (Each worker loads in its main thread: a second thread would make it slower for good,
    see threads.py.)"""
    idle = spark.sparkContext.defaultParallelism - busy
    if not enabled or idle <= 0:
        yield
        return
    df = spark.range(0, idle, 1, idle)
    fn = tasks.warm_task(cfg.ner.model, cfg.ner.components)

    def run() -> None:
        spark.sparkContext.setLocalProperty("spark.job.description", "warm NER workers")
        try:
            df.mapInArrow(fn, df.schema).write.format("noop").mode("overwrite").save()
        except Exception:  # noqa: BLE001 - an optimisation; the job goes on without it
            pass

    thread = InheritableThread(run, name="faithqa-warm-workers", daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join()  # done long ago, as a rule: it only loads a model
