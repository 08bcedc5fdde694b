"""Lazy DataFrame -> DataFrame transforms: nothing here runs a Spark job. Each ends with a
`select` (or a task whose schema) states its output columns; every rule they apply is a
core function or is built from a core table (`core.outcomes`, `core.splitting`)."""

from __future__ import annotations

from typing import Any, Mapping

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from faithqa_spark import faults, fs
from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core import nearby, reasons, splitting
from faithqa_spark.core.bank import EntityBank
from faithqa_spark.core.dedupe import duplicate_detail
from faithqa_spark.core.outcomes import PLACED_AS, leftover_sources
from faithqa_spark.core.process import ROW_INPUT, Provenance
from faithqa_spark.inputs import InputFile, ReadPart, read_parts
from faithqa_spark.spark import schema as S
from faithqa_spark.spark import tasks


def read_qa(spark: SparkSession, files: list[InputFile], cfg: Config,
            parts: list[ReadPart] | None = None) -> DataFrame:
    """Unified QA rows (QA_SCHEMA) of all input files, one task per read part (`parts`,
    by default `inputs.read_parts` of `input.read_part_bytes`): a large official JSON file
    is read by several tasks side by side. Each task streams its file from the file's
    filesystem itself; the driver reads no input. Duplicates are marked within each part
    only: with more than one part, `with_duplicates_rejected` must follow."""
    storage = fs.spark_hadoop_settings(spark)
    if parts is None:
        parts = read_parts(files, cfg.input.read_part_bytes, storage)
    # one row (the part's index) per partition: one part per task
    ids = spark.range(0, len(parts), 1, numPartitions=len(parts))
    return ids.mapInArrow(tasks.read_task(parts, cfg, storage), S.QA_SCHEMA)


def with_duplicates_rejected(qa: DataFrame) -> DataFrame:
    """`core.dedupe`'s policy across files and parts: `with_duplicates_marked` with the
    `duplicate_firsts` of `qa` itself."""
    return with_duplicates_marked(qa, duplicate_firsts(qa))


def duplicate_firsts(qa: DataFrame) -> DataFrame:
    """The ids seen more than once in `qa`, each with its first place (the least (input
    file, record index)). Only the ids are shuffled, and no Python task runs."""
    first = F.min(F.struct(C.INPUT_FILE, C.RECORD_INDEX, C.RECORD_LOC))
    return (qa.groupBy(C.ID).agg(F.count(F.lit(1)).alias("_n"), first.alias("_first"))
            .filter(F.col("_n") > 1)
            .select(C.ID, *[F.col(f"_first.{c}").alias(f"_first_{c}")
                            for c in (C.INPUT_FILE, C.RECORD_INDEX, C.RECORD_LOC)]))


def with_duplicates_marked(qa: DataFrame, dups: DataFrame) -> DataFrame:
    """Every row of `qa` that is not its id's first place (`dups`, from `duplicate_firsts`)
    rejected as `duplicate_id`. Each read task has applied the policy within its part
    (`mark_in_order`); a row marked there is marked again here, naming the first copy of all
    files. A join with `dups` (a broadcast join when they are few)."""
    # the detail text is the core's own function, run on these few rows
    dups = dups.mapInArrow(
        tasks.apply_task(duplicate_detail, [f"_first_{C.INPUT_FILE}", f"_first_{C.RECORD_LOC}"],
                         "_detail"),
        T.StructType([*dups.schema.fields, T.StructField("_detail", T.StringType())]))
    is_dup = (F.col(f"_first_{C.INPUT_FILE}").isNotNull()
              & ((F.col(C.INPUT_FILE) != F.col(f"_first_{C.INPUT_FILE}"))
                 | (F.col(C.RECORD_INDEX) != F.col(f"_first_{C.RECORD_INDEX}")))
              & ((F.col(C.STATUS) != C.REJECTED) | (F.col(C.REASON) == reasons.DUPLICATE_ID)))
    replaced = {C.STATUS: F.when(is_dup, F.lit(C.REJECTED)).otherwise(F.col(C.STATUS)),
                C.REASON: F.when(is_dup, F.lit(reasons.DUPLICATE_ID)).otherwise(F.col(C.REASON)),
                C.DETAIL: F.when(is_dup, F.col("_detail")).otherwise(F.col(C.DETAIL))}
    return (qa.join(dups, on=C.ID, how="left")
            .select(*[replaced.get(name, F.col(name)).alias(name) for name, _ in C.QA_FIELDS]))


def distinct_contexts(qa_ok: DataFrame, cfg: Config) -> DataFrame:
    """(context_id, context, in_bank) once per distinct context; in_bank is
    `core.bank_build.feeds_bank` over its questions' sources."""
    in_bank = F.col(C.SOURCE).isin(cfg.bank.sources)
    # every row of a context_id holds the same text (the id is its hash), so first() is exact
    return (qa_ok.groupBy(C.CONTEXT_ID)
            .agg(F.first(C.CONTEXT).alias(C.CONTEXT), F.max(in_bank).alias(C.IN_BANK))
            .select(*[name for name, _ in C.CONTEXT_FIELDS]))


def with_entities(contexts: DataFrame, cfg: Config, partitions: int) -> DataFrame:
    """The distinct contexts with their entities and bank mentions (NER_SCHEMA); NER runs
    once per context, in `partitions` tasks."""
    return (contexts.select(*[name for name, _ in C.CONTEXT_FIELDS])
            .repartition(partitions, C.CONTEXT_ID)
            .mapInArrow(faults.on_first_batch("ner", tasks.ner_task(cfg)), S.NER_SCHEMA))


def bank_mention_counts(ner_df: DataFrame) -> DataFrame:
    """(entity_type, text, count) of the cleaned mentions in the bank sources' contexts
    (`core.bank_build.count_mentions`)."""
    m = F.explode(C.BANK_MENTIONS).alias("m")
    return (ner_df.select(m).groupBy(f"m.{C.ENTITY_TYPE}", f"m.{C.ENT_TEXT}").count()
            .select(C.ENTITY_TYPE, C.ENT_TEXT, "count"))


ARTICLE = "_article"


def article_column() -> Column:
    """`core.nearby.article_key` as a Column (null for a record of no article)."""
    loc = F.col(C.RECORD_LOC)
    return F.when(loc.startswith(nearby.ARTICLE_PREFIX), F.concat(
        F.col(C.INPUT_FILE), F.lit(nearby.FILE_SEP), F.substring_index(loc, nearby.LOC_SEP, 1)))


def article_mentions(qa_ok: DataFrame, ner_df: DataFrame) -> DataFrame:
    """(ARTICLE, entity_type, text, count): the bank mentions of the contexts of each
    article, with how many of its contexts name each (`core.nearby`)."""
    articles = (qa_ok.select(article_column().alias(ARTICLE), C.CONTEXT_ID)
                .where(F.col(ARTICLE).isNotNull()).distinct())
    # each (type, text) once per context, within its row: no shuffle of every mention to
    # make them distinct (the one task of that stage had taken 1.5 s of SQuAD train's job)
    m = F.explode(F.array_distinct(C.BANK_MENTIONS)).alias("m")
    return (articles.join(ner_df.select(C.CONTEXT_ID, C.BANK_MENTIONS), C.CONTEXT_ID)
            .select(ARTICLE, m).groupBy(ARTICLE, f"m.{C.ENTITY_TYPE}", f"m.{C.ENT_TEXT}")
            .count())


def with_outcomes(qa_ok: DataFrame, ner_df: DataFrame, cfg: Config, bank_bc: Any,
                  bank: EntityBank, prov: Provenance, nearby_bc: Any = None) -> DataFrame:
    """The outcome (dataset row or filtered row) of every answerable QA row, with the bank
    broadcast as `bank_bc` (plain lists) and the articles' entities as `nearby_bc`
    (`core.nearby`; None: none). The context text comes from the NER side, so the
    questions are shuffled without it."""
    # Hashed on context_id into the shuffle's partitions: what a sort-merge join needs anyway,
    # and when the contexts are broadcast instead (from the NER cache, say) the rows still
    # spread over every core, not over the read's few partitions (one task for SQuAD).
    parts = int(qa_ok.sparkSession.conf.get("spark.sql.shuffle.partitions"))
    questions = (qa_ok.select(C.CONTEXT_ID, *[c for c in ROW_INPUT if c != C.CONTEXT])
                 .repartition(parts, C.CONTEXT_ID))
    contexts = ner_df.select(C.CONTEXT_ID, C.CONTEXT, C.ENTITIES)
    joined = questions.join(contexts, on=C.CONTEXT_ID, how="left")
    return joined.mapInArrow(tasks.process_task(cfg, bank_bc, bank.fingerprint(), prov,
                                                nearby_bc), S.OUTCOME_SCHEMA)


def bucket(split_key: Column) -> Column:
    """`core.splitting.bucket_of` as a Column."""
    return F.shiftright(split_key, splitting.BUCKET_SHIFT)


def split_label(bounds: Mapping[str, splitting.Bounds]) -> Column:
    """`core.splitting.label_for_key` as a Column: the first split whose bound (key, id) the
    row's (split_key, id) is below, per source; over_cap past the last."""
    label = F.lit(splitting.OVER_CAP)
    for source in sorted(bounds):
        src_label = F.lit(splitting.OVER_CAP)
        for name, bound in reversed(list(zip(C.SPLITS, bounds[source]))):
            below = F.lit(True) if bound is None else (
                (F.col(C.SPLIT_KEY) < bound[0])
                | ((F.col(C.SPLIT_KEY) == bound[0]) & (F.col(C.ID) < bound[1])))
            src_label = F.when(below, F.lit(name)).otherwise(src_label)
        label = F.when(F.col(C.SOURCE) == source, src_label).otherwise(label)
    return label


def placed(outcomes: DataFrame, bounds: Mapping[str, splitting.Bounds]) -> DataFrame:
    """`core.outcomes.placed` of every outcome: its split label, and the final status and
    reason from `core.outcomes.PLACED_AS` (over the cap: filtered). Not persisted: a CASE
    expression over the persisted outcomes is cheaper than a copy."""
    label = F.when(F.col(C.STATUS) == C.OK, split_label(bounds))
    status, reason = F.col(C.STATUS), F.col(C.REASON)
    for lab, (new_status, new_reason) in PLACED_AS.items():
        status = F.when(label == lab, F.lit(new_status)).otherwise(status)
        reason = F.when(label == lab, F.lit(new_reason)).otherwise(reason)
    keep = [c for c in outcomes.columns if c not in (C.STATUS, C.REASON, C.SPLIT)]
    return outcomes.select(*keep, label.alias(C.SPLIT), status.alias(C.STATUS),
                           reason.alias(C.REASON))


def dataset(final: DataFrame) -> DataFrame:
    """The dataset rows (`core.outcomes.dataset_row`) of the placed outcomes."""
    return final.filter(F.col(C.STATUS) == C.OK).select(*C.DATASET_COLUMNS)


def _leftover_columns(df: DataFrame) -> list[Column]:
    out = []
    for c in C.LEFTOVER_COLUMNS:
        have = [F.col(f) for f in leftover_sources(c) if f in df.columns]
        col = (have[0] if len(have) == 1 else F.coalesce(*have)) if have else (
            F.lit(None).cast("string"))
        out.append(col.alias(c))
    return out


def leftovers(final: DataFrame, qa: DataFrame) -> DataFrame:
    """`core.outcomes.leftover_row` of every placed outcome and reader record that is not in
    the dataset (LEFTOVER_COLUMNS)."""
    not_ok = F.col(C.STATUS) != C.OK
    return (final.filter(not_ok).select(*_leftover_columns(final))
            .unionByName(qa.filter(not_ok).select(*_leftover_columns(qa))))


def reader_leftovers(qa: DataFrame, columns: list[str]) -> DataFrame:
    """The reader's filtered and rejected records with `columns` (null where they have none),
    to be counted beside the placed outcomes."""
    return qa.filter(F.col(C.STATUS) != C.OK).select(
        *[F.col(k) if k in qa.columns else F.lit(None).cast("string").alias(k) for k in columns])


def in_export_order(df: DataFrame, group: str) -> DataFrame:
    """Rows range-partitioned and sorted by (group, id): a filter on `group` then yields one
    output's rows in id order, partition after partition, with no further sort."""
    parts = max(1, df.sparkSession.sparkContext.defaultParallelism)
    return df.repartitionByRange(parts, group, C.ID).sortWithinPartitions(group, C.ID)
