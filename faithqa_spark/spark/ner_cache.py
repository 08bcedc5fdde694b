"""NER results across runs: the Delta NER table (`DIR/delta/ner`, and the --ner-cache
table), one row per (context, model name, model version)."""

from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.spark import schema as S
from faithqa_spark.spark import tasks


def ner_table(ner_df: DataFrame, model_name: str, model_version: str) -> DataFrame:
    """The NER results as NER_TABLE_FIELDS rows."""
    # NER partitions are sized for NER's cost; a file each would make many small files
    parts = ner_df.sparkSession.sparkContext.defaultParallelism
    return (ner_df.coalesce(parts)
            .withColumn(C.MODEL_NAME, F.lit(model_name))
            .withColumn(C.MODEL_VERSION, F.lit(model_version))
            .select(*[name for name, _ in C.NER_TABLE_FIELDS]))


def cached_entities(spark: SparkSession, cache_dir: str, contexts: DataFrame,
                    model_name: str, model_version: str, cfg: Config) -> DataFrame | None:
    """The contexts the cache knows for this model, with their entities and bank mentions
    (NER_SCHEMA); None when there is no cache table yet."""
    from delta.tables import DeltaTable

    if not DeltaTable.isDeltaTable(spark, cache_dir):
        return None
    return (spark.read.format("delta").load(cache_dir)
            .filter((F.col(C.MODEL_NAME) == model_name) & (F.col(C.MODEL_VERSION) == model_version))
            .select(C.CONTEXT_ID, C.ENTITIES)
            .join(contexts, on=C.CONTEXT_ID, how="inner")
            .select(*[name for name, _ in C.NER_FIELDS if name != C.BANK_MENTIONS])
            .mapInArrow(tasks.mentions_task(cfg), S.NER_SCHEMA))


def merge_into_cache(spark: SparkSession, cache_dir: str, fresh: DataFrame) -> None:
    """Add new NER results (NER_TABLE_FIELDS) to the cache table (created on first use);
    existing rows stay."""
    from delta.tables import DeltaTable

    if not DeltaTable.isDeltaTable(spark, cache_dir):
        fresh.write.format("delta").mode("errorifexists").save(cache_dir)
        return
    keys = " AND ".join(f"c.{k} = f.{k}" for k in (C.CONTEXT_ID, C.MODEL_NAME, C.MODEL_VERSION))
    (DeltaTable.forPath(spark, cache_dir).alias("c")
     .merge(fresh.alias("f"), keys).whenNotMatchedInsertAll().execute())
