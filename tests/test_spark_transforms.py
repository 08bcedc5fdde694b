"""Each Spark transform on tiny inline rows, compared with chispa to what the core says."""

from __future__ import annotations

import json

import pytest
from chispa import assert_df_equality
from pyspark.sql import functions as F

from faithqa_spark import PIPELINE_VERSION
from faithqa_spark.spark import schema as S
from faithqa_spark.config import load_config
from faithqa_spark.core import bank as cbank
from faithqa_spark.core import fields as C
from faithqa_spark.core import splitting
from faithqa_spark.core.dedupe import number_records
from faithqa_spark.core.hashing import split_key
from faithqa_spark.core.process import Provenance, entities_from_records, process_row
from faithqa_spark.core.sampling import SamplingIndex
from faithqa_spark.core.text import context_id
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.spark.actions import broadcast_bank, split_bounds
from faithqa_spark.spark.transforms import (bank_mention_counts, distinct_contexts, read_qa,
                                            split_label, with_entities, with_outcomes)
from faithqa_spark.sources import ReaderSettings, read_file

CTX1 = "Lida Marsh built three bridges over the Tarrow River for the Velmora Rail Company in 1907."
CTX2 = "Anna Velt started the Grenwick festival in 1952; Grenwick lies north of Brannick."
CTX3 = "Marek Tolla founded Grenwick in 1911, long before Lida Marsh came to Brannick."
CTX4 = "Most people of Skarn Island live in Hollin, a village of fishermen."


def qa_row(i: str, context: str, answer: str, source: str = "squad") -> dict:
    return {C.ID: f"{source}:{i}", C.SOURCE: source, C.QUESTION: f"Question {i}?",
            C.CONTEXT: context, C.CONTEXT_ID: context_id(context), C.ANSWER: answer,
            C.ANSWER_START: context.find(answer), C.ALIASES: [answer], C.INPUT_FILE: "in.json",
            C.RECORD_LOC: f"qa={i}", C.RECORD_INDEX: int(i), C.STATUS: C.OK, C.REASON: None, C.DETAIL: None}


ROWS = [qa_row("1", CTX1, "Lida Marsh"), qa_row("2", CTX1, "1907"),
        qa_row("3", CTX2, "Anna Velt"), qa_row("4", CTX2, "Brannick"),
        qa_row("5", CTX3, "Grenwick"), qa_row("6", CTX3, "long before")]


@pytest.fixture(scope="module")
def cfg(ruler_model):
    return load_config(None, [f'ner.model="{ruler_model}"'])


@pytest.fixture(scope="module")
def qa_df(spark):
    return spark.createDataFrame(ROWS, S.QA_SCHEMA)


def expected_entities(nlp_path: str, text: str) -> list[dict]:
    from faithqa_spark.ner import load_ner, run_ner
    return run_ner(load_ner(nlp_path, ["ner", "entity_ruler"]), [text], 8)[0]


def test_distinct_contexts_flags_bank_sources(spark, cfg):
    rows = ROWS + [qa_row("9", CTX4, "Hollin", source="triviaqa"),
                   qa_row("10", CTX3, "Marek Tolla", source="triviaqa")]
    got = distinct_contexts(spark.createDataFrame(rows, S.QA_SCHEMA), cfg)
    want = [(context_id(t), t, flag) for t, flag in
            ((CTX1, True), (CTX2, True), (CTX3, True), (CTX4, False))]
    assert_df_equality(got, spark.createDataFrame(want, S.struct_type(C.CONTEXT_FIELDS)),
                       ignore_row_order=True)


def test_with_entities_runs_once_per_distinct_context(spark, qa_df, cfg):
    contexts = distinct_contexts(qa_df, cfg)
    got = with_entities(contexts, cfg, partitions=3)
    expected = spark.createDataFrame(
        [{C.CONTEXT_ID: context_id(t), C.CONTEXT: t, C.IN_BANK: True,
          C.ENTITIES: expected_entities(cfg.ner.model, t),
          C.BANK_MENTIONS: [{C.ENTITY_TYPE: etype, C.ENT_TEXT: text} for etype, text in
                            cbank.bank_mentions(expected_entities(cfg.ner.model, t), cfg.bank)]}
         for t in (CTX1, CTX2, CTX3)], S.NER_SCHEMA)
    assert_df_equality(got, expected, ignore_row_order=True)
    first = got.filter(got[C.CONTEXT_ID] == context_id(CTX1)).first()[C.ENTITIES]
    assert [(e[C.ENT_TEXT], e[C.ENT_LABEL]) for e in first] == [
        ("Lida Marsh", "PERSON"), ("Tarrow River", "LOC"), ("Velmora Rail Company", "ORG"),
        ("1907", "DATE")]
    for e in first:
        assert CTX1[e[C.ENT_START]:e[C.ENT_END]] == e[C.ENT_TEXT]


def test_bank_mention_counts(spark, cfg):
    # CTX4 is only in a TriviaQA row: not a bank source, so its entities do not count
    rows = ROWS + [qa_row("9", CTX4, "Hollin", source="triviaqa")]
    ner_df = with_entities(distinct_contexts(spark.createDataFrame(rows, S.QA_SCHEMA), cfg),
                           cfg, partitions=2)
    ctx4 = ner_df.filter(ner_df[C.CONTEXT] == CTX4).first()
    assert ctx4[C.ENTITIES] and ctx4[C.BANK_MENTIONS] == []
    got = bank_mention_counts(ner_df)
    expected = spark.createDataFrame(
        [("PERSON", "Lida Marsh", 2), ("LOC", "Tarrow River", 1),
         ("ORG", "Velmora Rail Company", 1), ("DATE", "1907", 1), ("PERSON", "Anna Velt", 1),
         ("GPE", "Grenwick", 3), ("DATE", "1952", 1), ("GPE", "Brannick", 2),
         ("PERSON", "Marek Tolla", 1)],
        "entity_type string, text string, count bigint")
    assert_df_equality(got, expected, ignore_row_order=True, ignore_nullable=True)


def test_with_outcomes_equals_core_process_row(spark, qa_df, cfg):
    ner_df = with_entities(distinct_contexts(qa_df, cfg), cfg, partitions=2)
    # seen 3 times each: the default bank.min_frequency keeps places seen at least 3 times
    bank = cbank.assemble([("PERSON", "Oda Renn", 3), ("PERSON", "Halvard Quist", 3),
                           ("GPE", "Hollin", 3), ("GPE", "Ostrava Nova", 3),
                           ("DATE", "1868", 3)], cfg.bank)
    prov = Provenance(PIPELINE_VERSION, cfg.config_hash, "test_ruler-0.0.1")
    got = with_outcomes(qa_df, ner_df, cfg, broadcast_bank(spark, bank), bank, prov)
    index = SamplingIndex.from_bank(bank.entities)
    want = [process_row(r, entities_from_records(expected_entities(cfg.ner.model, r[C.CONTEXT])),
                        index, cfg, prov) for r in ROWS]
    assert_df_equality(got, spark.createDataFrame(want, S.OUTCOME_SCHEMA), ignore_row_order=True)
    by_id = {r[C.ID]: r for r in got.collect()}
    assert by_id["squad:1"][C.STATUS] == C.OK
    assert by_id["squad:1"][C.FAITHFUL_ANSWER] in ("Oda Renn", "Halvard Quist")
    assert by_id["squad:6"][C.REASON] == "no_entity_match"
    assert by_id["squad:4"][C.STATUS] == C.OK
    assert by_id["squad:4"][C.FAITHFUL_ANSWER] in ("Hollin", "Ostrava Nova")


@pytest.mark.parametrize("n_squad,n_tqa,cap", [(1, 0, 0), (37, 11, 0), (250, 120, 100)])
def test_split_labels_equal_reference_ranks(spark, n_squad, n_tqa, cap):
    cfg = load_config(None, [f"limits.max_success={{ triviaqa = {cap} }}"])
    rows = [(s, f"{s}:{i}", split_key(42, f"{s}:{i}"))
            for s, n in (("squad", n_squad), ("triviaqa", n_tqa)) for i in range(n)]
    df = spark.createDataFrame(rows, "source string, id string, split_key bigint").repartition(5)
    df = df.withColumn(C.STATUS, F.lit(C.OK))
    got = dict(df.select(C.ID, split_label(split_bounds(df, cfg)).alias("label")).collect())
    want = {}
    for s in ("squad", "triviaqa"):
        keys = [(k, i) for src, i, k in rows if src == s]
        want.update(splitting.label_sorted(keys, cfg.limits.max_success.get(s, 0), 0.8, 0.1))
    assert got == want
    if cap and n_tqa > cap:
        assert sum(1 for i, v in got.items() if i.startswith("triviaqa") and v != "over_cap") == cap


def test_read_qa_equals_reader(spark, tmp_path, cfg):
    doc = {"version": "1.1", "data": [{"title": "T", "paragraphs": [
        {"context": CTX1, "qas": [
            {"id": "a", "question": "Who?", "answers": [{"text": "Lida Marsh", "answer_start": 0}]},
            {"id": "b", "question": "When?", "answers": [{"text": "1907", "answer_start": 999}]},
            {"id": "c", "question": "  ", "answers": [{"text": "1907", "answer_start": 85}]}]}]}]}
    p = tmp_path / "tiny.json"
    p.write_text(json.dumps(doc))
    files = collect_inputs([str(p)], None)
    got = read_qa(spark, files, cfg)
    want = list(number_records(read_file(p.read_bytes(), path=str(p), source="squad",
                                         settings=ReaderSettings())))
    assert_df_equality(got, spark.createDataFrame(want, S.QA_SCHEMA), ignore_row_order=True)
    statuses = {r[C.ID]: (r[C.STATUS], r[C.REASON]) for r in got.collect()}
    assert statuses == {"squad:a": ("ok", None), "squad:b": ("ok", None),
                        "squad:c": ("rejected", "empty_field")}


def _outcome(i: int, source: str, status: str, reason: str | None = None) -> dict:
    rid = f"{source}:{i}"
    row = dict.fromkeys(name for name, _ in C.OUTCOME_FIELDS)
    row.update({C.ID: rid, C.SOURCE: source, C.STATUS: status, C.REASON: reason,
                C.SPLIT_KEY: split_key(42, rid), C.INPUT_FILE: f"{source}.json",
                C.RECORD_LOC: f"qa={i}", C.QUESTION: f"Q{i}?", C.ORIGINAL_ANSWER: f"a{i}",
                C.ORIGINAL_CONTEXT: "Anna Velt sailed from Grenwick to Hollin in 1952."})
    if status == C.OK:
        row.update({C.ENTITY_TYPE: "PERSON", C.MATCH_STRATEGY: "exact",
                    C.MODIFIED_CONTEXT: "Oda Renn sailed from Grenwick to Hollin in 1952.",
                    C.FAITHFUL_ANSWER: "Oda Renn", C.ANSWER_STARTS: [0],
                    C.MODIFIED_SPANS: [{C.SPAN_START: 0, C.SPAN_END: 8}], C.NUM_REPLACEMENTS: 1})
    return row


def test_placement_leftovers_and_tally_equal_core(spark):
    from faithqa_spark.core import outcomes as O
    from faithqa_spark.spark import actions
    from faithqa_spark.spark import transforms as T

    cfg = load_config(None, ["limits.max_success={ triviaqa = 4 }"])
    outs = ([_outcome(i, "squad", C.OK) for i in range(30)]
            + [_outcome(i, "triviaqa", C.OK) for i in range(9)]
            + [_outcome(50 + i, "squad", C.FILTERED, "no_entity_match") for i in range(3)])
    rejects = [{**qa_row(str(90 + i), CTX1, "x"), C.STATUS: C.REJECTED,
                C.REASON: "empty_field", C.INPUT_FILE: "squad.json"} for i in range(2)]
    qa = spark.createDataFrame(rejects, S.QA_SCHEMA)
    df = spark.createDataFrame(outs, S.OUTCOME_SCHEMA).repartition(3)

    bounds = actions.split_bounds(df, cfg)
    assert bounds == O.bounds_by_source(outs, cfg)
    final = T.placed(df, bounds)
    want_final = [O.placed(o, bounds) for o in outs]
    assert_df_equality(T.dataset(final), spark.createDataFrame(
        [O.dataset_row(p) for p in want_final if p[C.STATUS] == C.OK], S.DATASET_SCHEMA),
        ignore_row_order=True, ignore_nullable=True)
    want_left = [O.leftover_row(r) for r in rejects + want_final if r[C.STATUS] != C.OK]
    assert_df_equality(T.leftovers(final, qa), spark.createDataFrame(want_left, S.LEFTOVER_SCHEMA),
                       ignore_row_order=True, ignore_nullable=True)
    assert sum(r[C.REASON] == "over_source_cap" for r in want_left) == 5

    inputs = actions.input_counts(qa)
    got = actions.final_tally(final, qa, inputs)
    want = O.tally(O.group_counts(rejects, O.INPUT_KEYS),
                   O.group_counts(want_final + rejects, O.TALLY_KEYS))
    assert sorted(got.statuses, key=str) == sorted(want.statuses, key=str)
    assert sorted(got.successes, key=str) == sorted(want.successes, key=str)
    assert got.inputs == want.inputs
