"""The rules between the core steps, one place for both runners: placement (split labels and
the over-cap relabel), leftovers, the tally, the report's sections, the bank's assembly from
mentions, and the text exports."""

from __future__ import annotations

import json

import pytest

from faithqa_spark.config import load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core import reasons, splitting
from faithqa_spark.core.bank_build import (context_mentions, count_mentions,
                                           distinct_contexts, feeds_bank, run_bank)
from faithqa_spark.core.bank import EntityBank
from faithqa_spark.core.exports import FILE_EXPORTS, framed_text, selected
from faithqa_spark.core.hashing import split_key
from faithqa_spark.core.outcomes import (INPUT_KEYS, TALLY_KEYS, bounds_by_source, dataset_row,
                                         group_counts, leftover_row, place, placed, tally)
from faithqa_spark.core.report import ReconciliationError, build_report, ner_section

CFG = load_config(None, ["limits.max_success={ triviaqa = 3 }"])


def outcome(i: int, source: str = "squad", status: str = C.OK, reason: str | None = None,
            **extra) -> dict:
    rid = f"{source}:{i}"
    return {C.ID: rid, C.SOURCE: source, C.STATUS: status, C.REASON: reason, C.DETAIL: None,
            C.SPLIT_KEY: split_key(42, rid), C.INPUT_FILE: f"{source}.json",
            C.RECORD_LOC: f"qa={i}", C.ORIGINAL_ANSWER: f"answer {i}", C.QUESTION: f"Q{i}?",
            C.ENTITY_TYPE: "PERSON" if status == C.OK else None,
            C.MATCH_STRATEGY: "exact" if status == C.OK else None, **extra}


def test_place_relabels_only_over_cap():
    assert place(C.OK, None, "train") == (C.OK, None)
    assert place(C.OK, None, splitting.OVER_CAP) == (C.FILTERED, reasons.OVER_SOURCE_CAP)
    assert place(C.FILTERED, reasons.NO_ENTITY_MATCH, None) == (C.FILTERED, reasons.NO_ENTITY_MATCH)


def test_placed_labels_by_exact_rank_and_caps_each_source():
    outs = ([outcome(i) for i in range(20)] + [outcome(i, "triviaqa") for i in range(7)]
            + [outcome(99, status=C.FILTERED, reason=reasons.NO_ENTITY_MATCH)])
    final = [placed(o, bounds_by_source(outs, CFG)) for o in outs]
    for source, cap in (("squad", 0), ("triviaqa", 3)):
        keys = [(o[C.SPLIT_KEY], o[C.ID]) for o in outs
                if o[C.SOURCE] == source and o[C.STATUS] == C.OK]
        want = splitting.label_sorted(keys, cap, 0.8, 0.1)
        assert {p[C.ID]: p[C.SPLIT] for p in final if p[C.ID] in want} == want
    squad = [p[C.SPLIT] for p in final if p[C.SOURCE] == "squad" and p[C.STATUS] == C.OK]
    assert sorted(squad).count("train") == 16 and squad.count("dev") == 2
    trivia = [p for p in final if p[C.SOURCE] == "triviaqa"]
    assert sum(p[C.STATUS] == C.OK for p in trivia) == 3
    over = [p for p in trivia if p[C.STATUS] != C.OK]
    assert len(over) == 4 and {(p[C.REASON], p[C.SPLIT]) for p in over} == {
        (reasons.OVER_SOURCE_CAP, splitting.OVER_CAP)}
    filtered = next(p for p in final if p[C.ID] == "squad:99")
    assert (filtered[C.STATUS], filtered[C.REASON], filtered[C.SPLIT]) == (
        C.FILTERED, reasons.NO_ENTITY_MATCH, None)


def test_bounds_from_buckets_equal_bounds_from_all_keys():
    keys = [(split_key(7, f"s:{i}"), f"s:{i}") for i in range(500)]
    counts: dict[int, int] = {}
    for k in keys:
        counts[splitting.bucket_of(k[0])] = counts.get(splitting.bucket_of(k[0]), 0) + 1
    wanted = splitting.cut_buckets(counts, 300, 0.8, 0.1)
    only_wanted = {b: [k for k in keys if splitting.bucket_of(k[0]) == b] for b in wanted}
    assert splitting.source_bounds(counts, only_wanted, 300, 0.8, 0.1) == \
        splitting.bounds_of_keys(keys, 300, 0.8, 0.1)


def test_leftover_row_fills_answer_from_original_answer():
    reader = {C.ID: "squad:r", C.STATUS: C.REJECTED, C.REASON: "empty_field", C.ANSWER: None}
    assert leftover_row(reader)[C.ANSWER] is None
    assert leftover_row({**reader, C.ANSWER: "x"})[C.ANSWER] == "x"
    row = leftover_row(outcome(1, status=C.FILTERED, reason=reasons.NO_ENTITY_MATCH))
    assert list(row) == C.LEFTOVER_COLUMNS
    assert row[C.ANSWER] == "answer 1" and row[C.REPLACEMENT_ENTITY] is None


def test_dataset_row_has_the_dataset_columns_in_order():
    row = dataset_row({**outcome(3), C.SPLIT: "dev", "extra": 1})
    assert list(row) == C.DATASET_COLUMNS and row[C.SPLIT] == "dev"


def test_tally_counts_every_place_and_reconciles():
    final = [placed(o, {"squad": [None, None, None]}) for o in
             (outcome(1), outcome(2), outcome(3, status=C.FILTERED, reason="no_entity_match"))]
    rejects = [{C.ID: "squad:9", C.SOURCE: "squad", C.INPUT_FILE: "squad.json",
                C.STATUS: C.REJECTED, C.REASON: "empty_field"}]
    counts = tally(group_counts(final + rejects, INPUT_KEYS),
                   group_counts(final + rejects, TALLY_KEYS))
    assert counts.inputs == [("squad", "squad.json", 4)]
    assert sorted(counts.statuses, key=str) == sorted([
        ("squad", "squad.json", C.OK, None, 2), ("squad", "squad.json", C.FILTERED,
                                                  "no_entity_match", 1),
        ("squad", "squad.json", C.REJECTED, "empty_field", 1)], key=str)
    assert counts.successes == [("squad", "train", "PERSON", "exact", 2)]
    report = build_report(counts.inputs, counts.statuses, counts.successes, bank_counts={},
                          bank_origin="o", provenance={}, ner=ner_section(3, 1),
                          sections={"audit": {"flags": 0}})
    assert list(report) == ["bank", "sources", "total", "ner", "audit"]
    assert report["ner"] == {"distinct_contexts": 3, "sent_to_ner": 1, "from_cache": 2}
    assert report["sources"]["squad"]["files"]["squad.json"] == {
        "input_records": 4, "success": 2, "filtered": 1, "rejected": 1}
    with pytest.raises(ValueError, match="exists already"):
        build_report(counts.inputs, counts.statuses, counts.successes, bank_counts={},
                     bank_origin="o", provenance={}, ner=ner_section(0, 0),
                     sections={"total": 1})
    with pytest.raises(ReconciliationError, match="squad.json"):
        build_report(counts.inputs, counts.statuses[:1], [], bank_counts={}, bank_origin="o",
                     provenance={}, ner=ner_section(0, 0))


def test_bank_assembly_from_mentions():
    ents = [{C.ENT_TEXT: "Anna Velt's", C.ENT_LABEL: "PERSON", C.ENT_START: 0, C.ENT_END: 11},
            {C.ENT_TEXT: "12 percent", C.ENT_LABEL: "PERCENT", C.ENT_START: 20, C.ENT_END: 30},
            {C.ENT_TEXT: "Grenwick", C.ENT_LABEL: "GPE", C.ENT_START: 40, C.ENT_END: 48}]
    assert context_mentions(ents, False, CFG.bank) == []
    assert context_mentions(None, True, CFG.bank) == []
    m = context_mentions(ents, True, CFG.bank)
    # PERCENT is a bank type of the default (coherent) config, not of the paper's
    assert m == [{C.ENTITY_TYPE: "PERSON", C.ENT_TEXT: "Anna Velt"},
                 {C.ENTITY_TYPE: "PERCENT", C.ENT_TEXT: "12 percent"},
                 {C.ENTITY_TYPE: "GPE", C.ENT_TEXT: "Grenwick"}]
    assert sorted(count_mentions([m, m[2:], []])) == [("GPE", "Grenwick", 2),
                                                      ("PERCENT", "12 percent", 1),
                                                      ("PERSON", "Anna Velt", 1)]
    # the default bank.min_frequency keeps a GPE seen 3 times, and a PERSON seen once
    bank, origin = run_bank(None, None, lambda: count_mentions([m, m[2:], m[2:]]), CFG.bank)
    assert bank.entities["GPE"] == ["Grenwick"] and bank.frequency["GPE"] == {"Grenwick": 3}
    assert bank.entities["PERSON"] == ["Anna Velt"] and bank.frequency["PERSON"] == {
        "Anna Velt": 1}
    # ... but not a GPE seen twice
    bank, _ = run_bank(None, None, lambda: count_mentions([m, m[2:]]), CFG.bank)
    assert bank.entities["GPE"] == [] and bank.entities["PERSON"] == ["Anna Velt"]
    assert origin == "built from squad contexts"
    given = EntityBank({"GPE": ["Hollin"]}, {})
    assert run_bank(given, "dir", lambda: pytest.fail("counted"), CFG.bank) == (given, "dir")


def test_distinct_contexts_and_which_feed_the_bank():
    rows = [{C.CONTEXT_ID: "a", C.CONTEXT: "A", C.SOURCE: "triviaqa"},
            {C.CONTEXT_ID: "b", C.CONTEXT: "B", C.SOURCE: "triviaqa"},
            {C.CONTEXT_ID: "a", C.CONTEXT: "A", C.SOURCE: "squad"}]
    assert distinct_contexts(rows, CFG.bank) == {"a": ("A", True), "b": ("B", False)}
    assert feeds_bank(["triviaqa", "squad"], CFG.bank) and not feeds_bank([], CFG.bank)


def test_file_exports_follow_the_formats_with_hub_shard_names():
    assert [e.file(g) for e in selected({"jsonl"}) for g in e.groups] == [
        "jsonl/train-00000-of-00001.jsonl", "jsonl/validation-00000-of-00001.jsonl",
        "jsonl/test-00000-of-00001.jsonl", "filtered/filtered-00000-of-00001.jsonl",
        "rejected/rejected-00000-of-00001.jsonl"]
    parquet = next(e for e in selected({"parquet"}) if e.format == "parquet")
    assert parquet.file("dev", 2, 4) == "parquet/validation-00002-of-00004.parquet"
    assert parquet.pattern("dev") == "parquet/validation-*.parquet"
    squad = next(e for e in FILE_EXPORTS if e.format == "squad")
    row = {C.ID: "x", C.QUESTION: "Q?", C.MODIFIED_CONTEXT: "Oda Renn sailed.",
           C.FAITHFUL_ANSWER: "Oda Renn", C.ANSWER_STARTS: [0]}
    doc = json.loads(framed_text([squad.line(row), squad.line(row)], squad.frame("dev")))
    assert doc["data"][0]["title"] == "faithqa-dev"
    assert len(doc["data"][0]["paragraphs"]) == 2
    assert set(squad.columns) == set(row)


def test_output_files_and_directories_are_readable_by_others(tmp_path):
    """Atomic writes go through mkstemp/mkdtemp (0600/0700); outputs must not stay private."""
    from faithqa_spark import io as fio
    from faithqa_spark.core import bank as cbank

    fio.write_text_atomic(tmp_path / "a.txt", "x")
    fio.write_lines_atomic(tmp_path / "b.jsonl", ["{}"])
    cbank.save(EntityBank({"GPE": ["Hollin"]}, {}), tmp_path / "bank")
    modes = {p.name: p.stat().st_mode & 0o777 for p in
             (tmp_path / "a.txt", tmp_path / "b.jsonl", tmp_path / "bank")}
    assert modes == {"a.txt": 0o644, "b.jsonl": 0o644, "bank": 0o755}
