"""An invented dataset for the training-export tests, and the directory written from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faithqa_spark.config import load_config
from faithqa_spark.core import fields as C
from faithqa_spark.core.text import boundary_matches
from faithqa_spark.training_writer import write_training_exports

from helpers import export_file

ALL = ["training.factual_share=1.0", "training.abstention_share=1.0",
       "training.dialogue.share=1.0"]
CFG = load_config(None, ALL + ['output.formats=["jsonl", "sft", "dpo", "dialogues", "card"]'])

# An invented world: (context, [(question, answer entity, replacement, type)]).
WORLD = [
    ("The Velmora Rail Company opened its first line in 1907. Its founder, Mr. Halvard Quist, "
     "came from Grenwick. The line ran 121 kilometres along the Tarrow River.",
     [("Who founded the Velmora Rail Company?", "Halvard Quist", "Oda Renn", "PERSON"),
      ("When did the first line open?", "1907", "1934", "DATE")]),
    ("Pellin Bay freezes for 3.5 months a year. Fishing boats from Brannick shelter there. "
     "The U.S. Navy charted the bay in 1921.",
     [("Where do the fishing boats come from?", "Brannick", "Hollin", "GPE"),
      ("When was the bay charted?", "1921", "1952", "DATE")]),
    ("Anna Velt wrote the Karsland lynx survey. She counted the cats on Skarn Island! "
     "Her report named Dr. Tove Arlen as co-author.",
     [("Who wrote the lynx survey?", "Anna Velt", "Sanna Morrow", "PERSON"),
      ("Where were the cats counted?", "Skarn Island", "Ostrava Nova", "LOC")]),
    ("Hjelm is a small brewing town. It lies twelve miles north of Ostrava Nova. "
     "Its brewery was founded by Marek Tolla in 1961.",
     [("Who founded the brewery?", "Marek Tolla", "Lida Marsh", "PERSON"),
      ("When was the brewery founded?", "1961", "1907", "DATE")]),
]
SPLIT_OF = ["train", "dev", "train", "test", "train", "test", "dev", "train"]


def make_row(i: int, context: str, q: str, orig: str, repl: str, etype: str,
             split: str, source: str = "squad") -> dict:
    spans = boundary_matches(context, orig)
    modified, pos = "", 0
    for s, e in spans:
        modified += context[pos:s] + repl
        pos = e
    modified += context[pos:]
    return {C.ID: f"{source}:q{i:02d}", C.QUESTION: q, C.ORIGINAL_CONTEXT: context,
            C.MODIFIED_CONTEXT: modified, C.ORIGINAL_ANSWER: orig, C.FAITHFUL_ANSWER: repl,
            C.ORIGINAL_ENTITY: orig, C.REPLACEMENT_ENTITY: repl, C.ENTITY_TYPE: etype,
            C.SOURCE: source, C.SPLIT: split, C.MATCH_STRATEGY: "exact",
            C.ANSWER_STARTS: [s for s, _ in boundary_matches(modified, repl)],
            C.MODIFIED_SPANS: [], C.NUM_REPLACEMENTS: len(spans), C.PIPELINE_VERSION: "t",
            C.CONFIG_HASH: "h", C.NER_MODEL: "m"}


def world_rows() -> list[dict]:
    qs = [(ctx, *q) for ctx, questions in WORLD for q in questions]
    return [make_row(i, *q, SPLIT_OF[i]) for i, q in enumerate(qs)]


ROWS = world_rows()


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("training")
    (out / "jsonl").mkdir()
    for split in C.SPLITS:  # the dataset's own export, as the runners write it
        (out / export_file("jsonl", split)).write_text(
            "".join(json.dumps(r) + "\n" for r in ROWS if r[C.SPLIT] == split), encoding="utf-8")
    counts = write_training_exports(reversed(ROWS), out, CFG, None)
    (out / "manifest.json").write_text("{}\n")  # a complete run (runs.py), as a run leaves it
    return out, counts


def all_records(out: Path, export: str) -> list[dict]:
    return [r for p in sorted((out / export).glob("*.jsonl")) for r in read_jsonl(p)]
