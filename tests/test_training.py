"""Training exports: TRL record schemas, controls, ids, the card, load_dataset, bytes."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from faithqa_spark.arrow import arrow_batch
from faithqa_spark.config import ConfigError, load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons as R
from faithqa_spark.core.card import FIELD_DOCS, dataset_card, dataset_data_files
from faithqa_spark.core.controls import build_pools, pick_abstention_context, pool_key
from faithqa_spark.core.text import boundary_matches
from faithqa_spark.core.training import (Example, dpo_record, record_id, row_id_of,
                                         squad_normalize)
from faithqa_spark.core.training_exports import EXPORTS, row_records
from faithqa_spark.training_writer import write_training_exports
from training_world import (ALL, CFG, ROWS, WORLD, all_records, read_jsonl,  # noqa: F401
                            written)


# ---------------------------------------------------------------- SFT / DPO schemas

def test_sft_records_follow_trl_conversational_format(written) -> None:
    out, _ = written
    recs = all_records(out, "sft")
    assert {r[C.KIND] for r in recs} == {C.COUNTERFACTUAL, C.FACTUAL, C.ABSTENTION}
    by_id = {r[C.ID]: r for r in ROWS}
    for r in recs:
        assert list(r) == [C.ID, C.KIND, C.SPLIT, C.SOURCE, C.MESSAGES]
        assert [m[C.ROLE] for m in r[C.MESSAGES]] == ["system", "user", "assistant"]
        assert all(set(m) == {C.ROLE, C.CONTENT} and m[C.CONTENT].strip() for m in r[C.MESSAGES])
        row = by_id[row_id_of(r[C.ID])]
        user, target = r[C.MESSAGES][1][C.CONTENT], r[C.MESSAGES][2][C.CONTENT]
        assert row[C.QUESTION] in user and r[C.SPLIT] == row[C.SPLIT]
        expected = {C.COUNTERFACTUAL: (row[C.MODIFIED_CONTEXT], row[C.FAITHFUL_ANSWER]),
                    C.FACTUAL: (row[C.ORIGINAL_CONTEXT], row[C.ORIGINAL_ANSWER]),
                    C.ABSTENTION: (None, CFG.training.refusal)}[r[C.KIND]]
        assert target == expected[1] and (expected[0] is None or expected[0] in user)


def test_dpo_records_follow_trl_preference_format(written) -> None:
    out, _ = written
    recs = all_records(out, "dpo")
    assert {r[C.KIND] for r in recs} == {C.COUNTERFACTUAL, C.FACTUAL, C.ABSTENTION}
    for r in recs:
        assert list(r) == [C.ID, C.KIND, C.SPLIT, C.SOURCE, C.PROMPT, C.CHOSEN, C.DPO_REJECTED]
        assert [m[C.ROLE] for m in r[C.PROMPT]] == ["system", "user"]
        for key in (C.CHOSEN, C.DPO_REJECTED):
            assert [m[C.ROLE] for m in r[key]] == ["assistant"] and r[key][0][C.CONTENT].strip()
        assert squad_normalize(r[C.CHOSEN][0][C.CONTENT]) != squad_normalize(
            r[C.DPO_REJECTED][0][C.CONTENT])


def test_dpo_pair_with_the_same_answer_is_skipped_and_counted() -> None:
    row = {**ROWS[0], C.FAITHFUL_ANSWER: "The Halvard Quist!"}
    ex = Example(C.COUNTERFACTUAL, "ctx", row[C.FAITHFUL_ANSWER], row[C.ORIGINAL_ANSWER])
    assert dpo_record(row, ex, CFG.training) is None
    rr = row_records(row, None, load_config(None, ['output.formats=["dpo"]']), ["dpo"])
    assert ("dpo", R.SAME_ANSWER, C.COUNTERFACTUAL) in rr.skipped
    assert all(r[C.KIND] != C.COUNTERFACTUAL for r in rr.records["dpo"])


# ---------------------------------------------------------------- controls and ids

def test_abstention_contexts_hold_neither_answer(written) -> None:
    out, _ = written
    by_id = {r[C.ID]: r for r in ROWS}
    abst = [r for r in all_records(out, "sft") if r[C.KIND] == C.ABSTENTION]
    assert abst
    for r in abst:
        row = by_id[row_id_of(r[C.ID])]
        user = r[C.MESSAGES][1][C.CONTENT]
        assert row[C.ORIGINAL_CONTEXT] not in user
        for answer in (row[C.ORIGINAL_ANSWER], row[C.FAITHFUL_ANSWER]):
            assert not boundary_matches(user, answer)


@settings(max_examples=60)
@given(st.lists(st.sampled_from([c for c, _ in WORLD] + ["Halvard Quist sailed.", "Oda Renns.",
                                                         "Nothing here at all."]),
                max_size=8), st.sampled_from(ROWS))
def test_picked_abstention_context_is_free_of_answers(pool: list[str], row: dict) -> None:
    ctx = pick_abstention_context(row, pool, 42)
    candidates = [c for c in pool if c != row[C.ORIGINAL_CONTEXT]
                  and not any(boundary_matches(c, t) for t in (
                      row[C.ORIGINAL_ANSWER], row[C.FAITHFUL_ANSWER]))]
    if ctx is None:
        assert not [c for c in candidates if not any(boundary_matches(c, t) for t in (
            row[C.ORIGINAL_ENTITY], row[C.REPLACEMENT_ENTITY]))]
    else:
        assert ctx in candidates


def test_pool_is_the_smallest_keys_per_source_and_split() -> None:
    pools = build_pools(ROWS, 42, 2)
    assert set(pools) == {("squad", s) for s in C.SPLITS}
    for (source, split), pool in pools.items():
        contexts = {r[C.ORIGINAL_CONTEXT] for r in ROWS if r[C.SPLIT] == split}
        assert pool == sorted(contexts, key=lambda c: (pool_key(42, c), c))[:2]


def test_control_shares_zero_make_no_controls() -> None:
    cfg = load_config(None, ["training.factual_share=0.0", "training.abstention_share=0.0"])
    rr = row_records(ROWS[0], "unused context", cfg, ["sft", "dpo"])
    assert [r[C.KIND] for r in rr.records["sft"] + rr.records["dpo"]] == [C.COUNTERFACTUAL] * 2


def test_ids_name_the_row_and_the_kind_and_no_id_is_in_two_splits(written) -> None:
    out, _ = written
    assert record_id("squad:q01", C.FACTUAL) == "squad:q01#factual"
    assert row_id_of("squad:q01#factual") == "squad:q01" == record_id("squad:q01", C.COUNTERFACTUAL)
    split_of_id: dict[str, str] = {}
    for export in EXPORTS:
        for r in all_records(out, export):
            for key in (r[C.ID], row_id_of(r[C.ID])):
                assert split_of_id.setdefault(key, r[C.SPLIT]) == r[C.SPLIT]
            assert r[C.ID] == record_id(row_id_of(r[C.ID]), r[C.KIND])


# ---------------------------------------------------------------- files, card, load_dataset

def test_files_are_sorted_and_counts_match(written) -> None:
    out, counts = written
    for export in EXPORTS:
        for split, hub in C.HUB_SPLITS.items():
            recs = read_jsonl(out / export / f"{hub}-00000-of-00001.jsonl")
            assert [r[C.ID] for r in recs] == sorted(r[C.ID] for r in recs)
            assert {r[C.SPLIT] for r in recs} <= {split}
            assert len(recs) == counts[export]["splits"][split]
    sft_kinds = counts["sft"]["kinds"]
    assert sum(sft_kinds[C.COUNTERFACTUAL].values()) == len(ROWS)


def test_same_input_gives_the_same_bytes(written, tmp_path) -> None:
    out, _ = written
    write_training_exports(ROWS, tmp_path, CFG, None)
    for export in EXPORTS:
        for p in (out / export).iterdir():
            assert (tmp_path / export / p.name).read_bytes() == p.read_bytes()
    assert (tmp_path / "README.md").read_bytes() == (out / "README.md").read_bytes()


def test_load_dataset_reads_every_config(written, tmp_path) -> None:
    datasets = pytest.importorskip("datasets")
    out, counts = written
    cache = str(tmp_path / "cache")
    ds = datasets.load_dataset(str(out), cache_dir=cache)
    assert {s: ds[s].num_rows for s in ds} == {
        C.HUB_SPLITS[s]: n for s in C.SPLITS
        if (n := sum(r[C.SPLIT] == s for r in ROWS))}
    for export in EXPORTS:
        d = datasets.load_dataset(str(out), export, cache_dir=cache)
        assert {s: d[s].num_rows for s in d} == {
            C.HUB_SPLITS[s]: n for s, n in counts[export]["splits"].items() if n}
        first = d["train"][0]
        assert first[C.KIND] in (C.COUNTERFACTUAL, C.CLARIFICATION, C.CORRECTION, C.ABSTENTION,
                                 C.FACTUAL)


def test_card_header_body_and_audit() -> None:
    report = {"sources": {"squad": {"input_records": 20, "success": 8, "success_rate": 0.4,
                                    "splits": {"train": 4, "dev": 2, "test": 2}}},
              C.CONFIG_HASH: "abc123", "audit": {"flags": ["name_remnant", "the_the"],
                                                  "total": {"rows": 8, "flags": {
                  "name_remnant": {"applies": 10, "fails": 3, "rate": 0.3},
                  "the_the": {"applies": 0, "fails": 0, "rate": None}}}}}
    training = {"sft": {"kinds": {k: {s: 1 for s in C.SPLITS} for k in (
        C.COUNTERFACTUAL, C.FACTUAL, C.ABSTENTION)}, "splits": {"train": 3, "dev": 3, "test": 0},
        "skipped": {}}}
    text = dataset_card(CFG, report, dataset_data_files({"jsonl"}), training)
    header = yaml.safe_load(text.split("---\n")[1])
    assert header["license"] == "cc-by-sa-4.0"
    configs = {c["config_name"]: c["data_files"] for c in header["configs"]}
    assert configs["default"][1] == {"split": "validation", "path": "jsonl/validation-*.jsonl"}
    assert configs["sft"][0] == {"split": "train", "path": "sft/train-*.jsonl"}
    assert dataset_data_files({"parquet"})["test"] == "parquet/test-*.parquet"
    assert [f["split"] for f in configs["sft"]] == ["train", "validation"]  # test is empty
    assert "name_remnant | 10 | 3 | 30.00%" in text and "the_the | 0 | 0 | - |" in text
    assert "`abc123`" in text and "word_boundaries=True" in text
    assert "CC BY-SA 4.0" in text and "## Audit" not in dataset_card(
        CFG, {**report, "audit": None}, {}, training)
    assert set(FIELD_DOCS) == set(C.DATASET_COLUMNS)
    both = {**report, "sources": {**report["sources"], "triviaqa": report["sources"]["squad"]}}
    assert yaml.safe_load(dataset_card(CFG, both, {}, training).split("---\n")[1])[
        "license"] == ["cc-by-sa-4.0", "apache-2.0"]


def test_records_fit_the_arrow_schema_for_delta_tables(written) -> None:
    out, _ = written
    for export, fields in (("sft", C.SFT_FIELDS), ("dpo", C.DPO_FIELDS),
                           ("dialogues", C.DIALOGUE_FIELDS)):
        recs = all_records(out, export)
        assert arrow_batch(recs, fields).to_pylist() == recs


# ---------------------------------------------------------------- config

@pytest.mark.parametrize("override, message", [
    ('training.user_template="Q: {question}"', "training.user_template[0]: must use {context}"),
    ('training.dialogue.clarify_supply=["Here: {answer}"]',
     "training.dialogue.clarify_supply[0]: unknown placeholder {answer}"),
    ("training.factual_share=1.5", "training.factual_share must be in [0, 1]"),
    ("training.dialogue.memory_answer=[]", "training.dialogue.memory_answer needs at least one"),
    ('training.user_template="{context} {question"', "bad braces"),
    ('output.formats=["sft", "chat"]', "unknown format 'chat'"),
])
def test_config_errors_name_the_key(override: str, message: str) -> None:
    with pytest.raises(ConfigError, match=None) as e:
        load_config(None, [override])
    assert message in str(e.value)


def test_command_adds_exports_to_an_output_directory(written, tmp_path, capsys) -> None:
    from faithqa_spark.training_writer import main

    out, counts = written
    assert main([str(out), "--output", str(tmp_path)] + [f"--set={o}" for o in ALL]) == 0
    assert json.loads(capsys.readouterr().out)["sft"] == counts["sft"]
    assert (tmp_path / "sft" / "train-00000-of-00001.jsonl").read_bytes() == (
        out / "sft" / "train-00000-of-00001.jsonl").read_bytes()
    bad = tmp_path / "bad" / "jsonl" / "train-00000-of-00001.jsonl"
    bad.parent.mkdir(parents=True)
    bad.write_text('{"id": "x"\n', encoding="utf-8")
    assert main([str(tmp_path / "bad")]) == 2  # no manifest.json: an incomplete run
    assert "an incomplete run (no manifest.json" in capsys.readouterr().err
    (tmp_path / "bad" / "manifest.json").write_text("{}")
    assert main([str(tmp_path / "bad")]) == 2
    assert "train-00000-of-00001.jsonl: line 1: not JSON" in capsys.readouterr().err


def test_spark_sha2_gives_the_pool_key(spark) -> None:
    """The Spark side ranks pool contexts with the built-in sha2 (core/controls.py)."""
    from pyspark.sql import functions as F

    from faithqa_spark.core.controls import pool_key_prefix

    texts = ["Oda Renn sailed.", "Zürich\u2028naïve — 東京 \U0001F600", "", '{"x": 1}']
    df = spark.createDataFrame([(t,) for t in texts], "ctx string")
    got = df.select(F.sha2(F.concat(F.lit(pool_key_prefix(42)), F.col("ctx")), 256)).collect()
    assert [r[0] for r in got] == [pool_key(42, t) for t in texts]


def test_skipped_draws_are_counted_per_export_reason_and_kind() -> None:
    from faithqa_spark.core.training_exports import export_lines, training_counts

    lines = export_lines(ROWS[0], None, CFG, ["sft", "dpo"])  # an abstention with no context
    skips = [(x[C.EXPORT], x[C.REASON], x[C.KIND]) for x in lines if x[C.REASON]]
    assert skips == [("sft", R.ABSTENTION_NO_CONTEXT, C.ABSTENTION),
                     ("dpo", R.ABSTENTION_NO_CONTEXT, C.ABSTENTION)]
    counts = training_counts([(x[C.EXPORT], x[C.KIND], x[C.SPLIT], x[C.REASON], 1)
                              for x in lines], ["sft", "dpo"])
    assert counts["dpo"]["skipped"] == {R.ABSTENTION_NO_CONTEXT: {C.ABSTENTION: 1}}
    assert counts["sft"]["kinds"][C.FACTUAL] == {"train": 1, "dev": 0, "test": 0}
    assert "dialogues" not in counts


def test_spark_pools_are_the_reference_pools(spark) -> None:
    """The bounded top-k per (source, split) on Spark picks exactly `build_pools`' contexts:
    more contexts than the pool holds, spread over partitions, repeated across rows (a
    repeat is one context), and a group with fewer than the pool's size."""
    from faithqa_spark.spark.training import abstention_pools

    size = 4
    cfg = load_config(None, [f"training.abstention_pool_size={size}"])
    rows = [{C.SOURCE: source, C.SPLIT: split, C.ORIGINAL_CONTEXT: f"{source} {split} text {i}."}
            for source, split, n in [("squad", "train", 30), ("squad", "dev", 9),
                                     ("triviaqa", "train", 12), ("triviaqa", "test", 2)]
            for i in range(n) for _ in range(1 + i % 3)]
    df = spark.createDataFrame(rows, f"{C.SOURCE} string, {C.SPLIT} string, "
                                     f"{C.ORIGINAL_CONTEXT} string").repartition(5)
    groups = [("squad", "train"), ("squad", "dev"), ("triviaqa", "train"),
              ("triviaqa", "test"), ("triviaqa", "dev")]  # the last has no rows
    want = build_pools(rows, cfg.pipeline.seed, size)
    assert abstention_pools(df, cfg, groups) == want
    assert [len(want[g]) for g in groups[:4]] == [size, size, size, 2]
