from __future__ import annotations

import json
from pathlib import Path

import pytest

from faithqa_spark.config import ConfigError, load_config
from faithqa_spark.core import bank

CFG = load_config()
PAPER_BANK = Path(__file__).resolve().parents[2] / "shared" / "reference" / "paper_entity_bank"


PAPER_TYPES = ["PERSON", "GPE", "ORG", "DATE", "CARDINAL", "NORP", "LOC", "EVENT"]


def test_default_config_holds_paper_values():
    c = CFG
    assert c.pipeline.seed == 42
    # the coherent default adds the other NER types; conf/paper.toml keeps the paper's 8
    assert c.bank.types[:8] == PAPER_TYPES and c.substitution.policy == "coherent"
    paper = load_config(Path("conf") / "paper.toml")
    assert paper.bank.types == PAPER_TYPES and paper.substitution.policy == "paper"
    assert set(paper.bank.min_frequency.values()) <= {1}
    assert (c.bank.min_chars, c.bank.max_chars) == (2, 100)
    assert (c.sampling.min_length_ratio, c.sampling.max_length_ratio) == (0.3, 3.0)
    assert (c.quality.min_context_chars, c.quality.max_occurrences) == (50, 10)
    assert (c.split.train, c.split.dev, c.split.test) == (0.8, 0.1, 0.1)
    assert c.matching.min_substring_overlap == 3 and c.matching.min_answer_chars == 2
    assert c.limits.max_success == {"triviaqa": 50000}


def test_unknown_key_is_rejected_with_its_name(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('extends = "default.toml"\n[sampling]\nmax_atempts = 3\n')  # the packaged one
    with pytest.raises(ConfigError, match="unknown key 'sampling.max_atempts'"):
        load_config(p)


def test_wrong_type_is_rejected_with_its_name(tmp_path):
    with pytest.raises(ConfigError, match="'quality.max_occurrences' must be an integer"):
        load_config(None, ["quality.max_occurrences='ten'"])
    with pytest.raises(ConfigError, match="'bank.types' must be a list"):
        load_config(None, ["bank.types=5"])
    with pytest.raises(ConfigError, match="'ner.batch_size' must be an integer, got bool"):
        load_config(None, ["ner.batch_size=true"])


def test_unknown_section_and_bad_split(tmp_path):
    with pytest.raises(ConfigError, match="unknown key 'nope'"):
        load_config(None, ["nope.x=1"])
    with pytest.raises(ConfigError, match="must be 1"):
        load_config(None, ["split.train=0.9"])


def test_overrides_and_hash():
    c = load_config(None, ["sampling.max_attempts=3", "output.dir=/tmp/x"])
    assert c.sampling.max_attempts == 3
    # the output location does not change the hash; content settings do
    assert load_config(None, ["output.dir=/elsewhere"]).config_hash == CFG.config_hash
    assert c.config_hash != CFG.config_hash


def test_policy_and_min_frequency_are_checked():
    with pytest.raises(ConfigError, match="substitution.policy must be one of coherent, paper"):
        load_config(None, ["substitution.policy='fancy'"])
    with pytest.raises(ConfigError, match="bank.min_frequency.ORG must be >= 1"):
        load_config(None, ["bank.min_frequency={ORG = 0}"])


def test_min_frequency_drops_rare_entries():
    counts = [("PERSON", "Ada Quell", 3), ("PERSON", "Bo Ren", 1), ("GPE", "Peru", 2)]
    b = bank.assemble(counts, CFG.replace(bank={"min_frequency": {"PERSON": 2, "GPE": 3}}).bank)
    assert b.entities["PERSON"] == ["Ada Quell"] and b.entities["GPE"] == []
    assert b.frequency["PERSON"] == {"Ada Quell": 3}


def test_local_and_cluster_configs_load():
    for name in ("local.toml", "cluster.toml"):
        assert load_config(Path("conf") / name).bank.types == CFG.bank.types


@pytest.mark.parametrize("text,label,want", [
    ("  Ostrava Nova ", "GPE", "Ostrava Nova"),
    ("X", "PERSON", None),                      # too short
    ("A" * 101, "ORG", None),                   # too long
    ("1907", "DATE", "1907"), ("12", "CARDINAL", "12"), ("1907", "ORG", None),
    ("Lida Marsh's", "PERSON", "Lida Marsh"), ("Jonas'", "PERSON", "Jonas"),
    (".mp3", "PERSON", None), ("-s", "PERSON", None), ("Marsh.[citation", "PERSON", None),
    ('"Velmora Gazette"', "ORG", "Velmora Gazette"),
    ("Lida Marsh", "NOT_A_LABEL", None),              # not a bank type
])
def test_clean_entity(text, label, want):
    assert bank.clean_entity(text, label, CFG.bank) == want


def test_paper_mode_keeps_possessives():
    raw = CFG.replace(bank={"strip_possessives": False, "drop_junk": False}).bank
    assert bank.clean_entity("Lida Marsh's", "PERSON", raw) == "Lida Marsh's"
    assert bank.clean_entity(".mp3", "PERSON", raw) == ".mp3"


# the default bank drops rare names; these tests are about the other rules
ALL_KEPT = load_config(Path("conf") / "paper.toml").bank


def test_assemble_merges_case_variants_by_frequency():
    b = bank.assemble([("GPE", "Ostrava", 3), ("GPE", "OSTRAVA", 5), ("GPE", "Pellin", 1),
                       ("GPE", "ostrava", 1)], ALL_KEPT)
    assert b.entities["GPE"] == ["OSTRAVA", "Pellin"]
    assert b.frequency["GPE"]["OSTRAVA"] == 9
    assert b.entities["PERSON"] == []


def test_save_load_round_trip(tmp_path):
    b = bank.assemble([("GPE", "Ostrava", 2), ("PERSON", "Lida Marsh", 1)], ALL_KEPT)
    bank.save(b, tmp_path / "bank")
    summary = json.loads((tmp_path / "bank" / "summary.json").read_text())
    assert summary["GPE"] == 1 and summary["PERSON"] == 1
    assert json.loads((tmp_path / "bank" / "GPE.json").read_text()) == ["Ostrava"]
    loaded = bank.load(tmp_path / "bank", ALL_KEPT.types)
    assert loaded.entities == b.entities


@pytest.mark.skipif(not PAPER_BANK.is_dir(), reason="shared reference bank not present")
def test_published_bank_loads_with_paper_counts():
    b = bank.load(PAPER_BANK, CFG.bank.types)
    # the published bank has the paper's 8 types; the default config's others stay empty
    assert {t: n for t, n in b.counts().items() if n} == {"PERSON": 20292, "GPE": 6769, "ORG": 25378, "DATE": 10613,
                          "CARDINAL": 6636, "NORP": 2849, "LOC": 2977, "EVENT": 1439}


def test_bad_bank_file_is_named(tmp_path):
    (tmp_path / "PERSON.json").write_text("{not json")
    with pytest.raises(bank.BankError, match="PERSON.json"):
        bank.load(tmp_path, CFG.bank.types)
    with pytest.raises(bank.BankError, match="not found"):
        bank.load(tmp_path / "missing", CFG.bank.types)


def test_spark_schemas_follow_the_field_lists():
    from pyspark.sql import types as T

    from faithqa_spark.spark import schema as S
    from faithqa_spark.core import fields as C

    ds = S.DATASET_SCHEMA
    assert ds.fieldNames() == C.DATASET_COLUMNS
    assert ds[C.ANSWER_STARTS].dataType == T.ArrayType(T.IntegerType())
    spans = ds[C.MODIFIED_SPANS].dataType.elementType
    assert spans.fieldNames() == [C.SPAN_START, C.SPAN_END]
    assert S.OUTCOME_SCHEMA[C.SPLIT_KEY].dataType == T.LongType()
    assert S.NER_SCHEMA[C.IN_BANK].dataType == T.BooleanType()


def test_bank_uris_keep_their_form(tmp_path):
    b = bank.assemble([("GPE", "Ostrava", 2)], ALL_KEPT)
    bank.save(b, f"file:{tmp_path}/bank")  # a file: URI, not a directory named "file:"
    assert bank.load(f"file://{tmp_path}/bank", ALL_KEPT.types).entities == b.entities
    assert bank.load(str(tmp_path / "bank"), ALL_KEPT.types).entities == b.entities
    with pytest.raises(bank.BankError, match="^entity bank directory nofs://x/bank: cannot be "
                                             "read: unsupported filesystem nofs://"):
        bank.load("nofs://x/bank", CFG.bank.types)
    with pytest.raises(bank.BankError, match=f"^entity bank directory not found: file:{tmp_path}"):
        bank.load(f"file:{tmp_path}/missing", CFG.bank.types)


def test_majority_type_keeps_a_text_under_its_most_frequent_type_and_a_tie_under_none():
    counts = [("PERSON", "Hashimoto", 5), ("ORG", "Hashimoto", 1),
              ("PERSON", "Kanye West", 5), ("GPE", "Kanye West", 5), ("GPE", "Peru", 4)]
    b = bank.assemble(counts, CFG.bank)
    assert CFG.bank.majority_type
    assert b.entities["PERSON"] == ["Hashimoto"] and b.entities["ORG"] == []
    assert b.entities["GPE"] == ["Peru"]  # NER cannot tell what "Kanye West" is: neither
    kept = bank.assemble(counts, ALL_KEPT)  # the paper's bank keeps every type
    assert "Kanye West" in kept.entities["GPE"] and "Hashimoto" in kept.entities["ORG"]
