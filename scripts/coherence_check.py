"""Fast iteration on the substitution policy without Spark: NER once per file (cached), then
the core `process_row` over every row with a bank built the way the job builds it, and the
audit's flags over the outcome.

    flock /tmp/faithqa-heavy.lock .venv/bin/python scripts/coherence_check.py ner FILE
    .venv/bin/python scripts/coherence_check.py run FILE [--config conf/paper.toml] [--show N]

`ner` runs the configured spaCy model over the file's distinct contexts and pickles
(context_id -> entities) to /tmp/faithqa-ner-<name>.pkl; `run` reads that cache.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from faithqa_spark.config import load_config
from faithqa_spark.core import fields as C


def cache_path(data_file: str) -> Path:
    return Path("/tmp") / f"faithqa-ner-{Path(data_file).stem}.pkl"


def read_rows(data_file: str, cfg: Any) -> list[dict[str, Any]]:
    from faithqa_spark.core.dedupe import mark_duplicates, number_records
    from faithqa_spark.inputs import reader_settings
    from faithqa_spark.sources import read_file

    rows = list(number_records(read_file(Path(data_file).read_bytes(), path=data_file,
                                         source="squad", settings=reader_settings(cfg))))
    mark_duplicates(rows)
    return [r for r in rows if r[C.STATUS] == C.OK]


def cmd_ner(args: argparse.Namespace) -> None:
    from faithqa_spark import ner as fner
    from faithqa_spark.threads import single_threaded_env

    single_threaded_env()
    cfg = load_config(args.config)
    rows = read_rows(args.file, cfg)
    contexts = {r[C.CONTEXT_ID]: r[C.CONTEXT] for r in rows}
    ids = sorted(contexts)
    t = time.time()
    nlp = fner.load_ner(cfg.ner.model, cfg.ner.components)
    ents = fner.run_ner(nlp, [contexts[i] for i in ids], cfg.ner.batch_size)
    out = {"model": fner.model_id(nlp), "entities": dict(zip(ids, ents))}
    cache_path(args.file).write_bytes(pickle.dumps(out))
    print(f"{len(ids)} contexts in {time.time() - t:.0f}s -> {cache_path(args.file)}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    n = sub.add_parser("ner")
    n.add_argument("file")
    n.add_argument("--config", default=None)
    args = p.parse_args(argv)
    if args.cmd == "ner":
        cmd_ner(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
