"""A THROUGHPUT LOAD in the official TriviaQA layout, made from SQuAD articles. It is not
TriviaQA and says so in every record (`QuestionSource`, `DocSource`): it is for measuring
how the job scales, with TriviaQA's shape of work (each question's evidence is a whole
article, from which the reader cuts the question's own context window).

    .venv/bin/python scripts/make_scale_load.py [SQUAD_FILE] --output DIR [--times 2]
                                                [--questions N]

Writes DIR/qa/scale-load.json (`Data`: one record per question) and one evidence page per
article and repeat under DIR/evidence/wikipedia/, where the TriviaQA reader looks for them.
Each SQuAD question becomes a record whose answer is its first answer (the other answers
are its aliases) and whose `EntityPages` name its article's page. `--times K` repeats every
question K times with distinct ids (`<squad id>~r<k>`); repeat k points to a page of the same
article with its paragraphs rotated by k, so the window around the answer differs and each
repeat is a context of its own, not a copy NER would see once. `--questions N` keeps the
first N records (articles in file order, each article's repeats together): a slice of the
load with the same mix. SQUAD_FILE defaults to the SQuAD train file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SQUAD = REPO.parent / "shared" / "data" / "squad" / "train-v1.1.reconstructed.json"
LABEL = "throughput load made from SQuAD articles (not TriviaQA)"
QA_FILE = "qa/scale-load.json"
EVIDENCE_DIR = "evidence/wikipedia"


def page_name(article: int, repeat: int) -> str:
    """The evidence page of `article` (its index in SQuAD's `data`) for repeat `repeat`."""
    return f"article-{article:05d}-r{repeat}.txt"


def page_text(article: dict[str, Any], repeat: int) -> str:
    """The article's paragraphs, rotated by `repeat`, one per line."""
    paragraphs = [p["context"] for p in article["paragraphs"]]
    k = repeat % len(paragraphs) if paragraphs else 0
    return "\n".join(paragraphs[k:] + paragraphs[:k])


def load_records(doc: dict[str, Any], times: int, questions: int | None = None
                 ) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(article index, repeat, TriviaQA record) of the load, in load order, the first
    `questions` of them (all when None)."""
    if times < 1:
        raise ValueError("times must be >= 1")
    made = 0
    for a, article in enumerate(doc["data"]):
        for r in range(times):
            for paragraph in article["paragraphs"]:
                for qa in paragraph["qas"]:
                    if questions is not None and made >= questions:
                        return
                    texts = [ans["text"] for ans in qa["answers"]]
                    yield a, r, {
                        "Question": qa["question"], "QuestionId": f"{qa['id']}~r{r}",
                        "QuestionSource": LABEL,
                        "Answer": {"Value": texts[0], "Aliases": list(dict.fromkeys(texts)),
                                   "Type": "WikipediaEntity"},
                        "EntityPages": [{"Filename": page_name(a, r),
                                         "Title": article.get("title", ""),
                                         "DocSource": LABEL}],
                        "SearchResults": []}
                    made += 1


def write_load(doc: dict[str, Any], out: Path, times: int, questions: int | None = None
               ) -> dict[str, Any]:
    """Write the load under `out`; returns what was written (paths and counts)."""
    records, pages = [], set()
    for a, r, record in load_records(doc, times, questions):
        records.append(record)
        pages.add((a, r))
    evidence = out / EVIDENCE_DIR
    evidence.mkdir(parents=True, exist_ok=True)
    for a, r in sorted(pages):
        (evidence / page_name(a, r)).write_text(page_text(doc["data"][a], r), encoding="utf-8")
    qa_file = out / QA_FILE
    qa_file.parent.mkdir(parents=True, exist_ok=True)
    qa_file.write_text(json.dumps({"Data": records, "Domain": "Wikipedia", "Split": "train",
                                   "Version": 1.0, "VerifiedEval": False, "Note": LABEL}),
                       encoding="utf-8")
    return {"qa_file": str(qa_file), "evidence_dir": str(evidence), "questions": len(records),
            "pages": len(pages), "times": times, "bytes": qa_file.stat().st_size}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("squad", nargs="?", default=str(DEFAULT_SQUAD))
    p.add_argument("--output", required=True, help="directory to write the load into")
    p.add_argument("--times", type=int, default=2, help="repeats of each question (default 2)")
    p.add_argument("--questions", type=int, help="keep only the first N records (a slice)")
    args = p.parse_args(argv)
    doc = json.loads(Path(args.squad).read_text(encoding="utf-8"))
    made = write_load(doc, Path(args.output), args.times, args.questions)
    print(json.dumps({**made, "label": LABEL}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
