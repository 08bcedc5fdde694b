"""Fast iteration on the substitution policy without Spark: NER once per file (cached), then
the core `process_row` over every row with a bank built the way the job builds it, and the
audit's flags over the outcome.

    flock /tmp/faithqa-heavy.lock .venv/bin/python scripts/coherence_check.py ner FILE
    .venv/bin/python scripts/coherence_check.py run FILE [--config conf/paper.toml] [--show N]
    .venv/bin/python scripts/coherence_check.py run FILE --show 5 --compare-config conf/paper.toml

    .venv/bin/python scripts/coherence_check.py time FILE [--compare-config conf/paper.toml]

`ner` runs the configured spaCy model over the file's distinct contexts and pickles
(context_id -> entities) to /tmp/faithqa-ner-<name>.pkl; `run` reads that cache. `time`
measures `process_row` under two configs side by side (the default against the paper's by
default): the cost of a policy in the job's process stage, without Spark.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections import Counter
from dataclasses import dataclass
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


@dataclass
class Prepared:
    """What `process_row` needs for a file's rows under one config, as the job makes it."""
    cfg: Any
    rows: list[dict[str, Any]]
    ents: dict[str, Any]
    model: str
    bank: Any
    near: dict[str, Any]
    index: Any
    prov: Any

    def work(self) -> list[tuple[dict[str, Any], Any, Any]]:
        """(row, its context's entities, its article's entities) for every row."""
        from faithqa_spark.core.nearby import article_of
        from faithqa_spark.core.process import entities_from_records

        return [(r, entities_from_records(self.ents[r[C.CONTEXT_ID]]),
                 self.near.get(article_of(r))) for r in self.rows]


def bank_of(cfg: Any, rows: list[dict[str, Any]], ents: dict[str, Any],
            bank_dir: str | None) -> Any:
    from faithqa_spark.core import bank as cbank

    if bank_dir:
        return cbank.load(bank_dir, cfg.bank.types)
    # the bank the job builds from this file's contexts
    mentions = Counter(m for cid in sorted({r[C.CONTEXT_ID] for r in rows})
                       for m in cbank.bank_mentions(ents[cid], cfg.bank))
    return cbank.assemble(((t, s, n) for (t, s), n in mentions.items()), cfg.bank)


def prepare(data_file: str, config: str | None, overrides: list[str],
            bank_dir: str | None = None) -> Prepared:
    from faithqa_spark.core import bank as cbank
    from faithqa_spark.core.nearby import article_of, from_contexts, wanted
    from faithqa_spark.core.outcomes import run_index
    from faithqa_spark.core.process import Provenance

    cfg = load_config(config, overrides)
    rows = read_rows(data_file, cfg)
    cache = pickle.loads(cache_path(data_file).read_bytes())
    ents = cache["entities"]
    bank = bank_of(cfg, rows, ents, bank_dir)
    # each article's entities, as the job's mapping: once per (article, context)
    pairs = sorted({(a, r[C.CONTEXT_ID]) for r in rows if (a := article_of(r)) is not None})
    near = from_contexts((a, cbank.bank_mentions(ents[cid], cfg.bank)) for a, cid in pairs
                         ) if wanted(cfg.substitution.policy) else {}
    return Prepared(cfg, rows, ents, cache["model"], bank, near, run_index(bank.entities, near),
                    Provenance("check", cfg.config_hash, cache["model"]))


def cmd_time(args: argparse.Namespace) -> None:
    """`process_row` over every row under two configs, side by side: after a warm-up pass
    over the first rows of each (the lazily built pools and lexicons, which a worker builds
    once), `--rounds` timed passes of each in turn; the fastest of each and their ratio, in
    wall and CPU seconds. As in a job's worker, what the warm-up built and each pass left is
    taken out of the garbage collector's generations (`tasks.keep_for_good`): else full
    collections walking the coherent policy's pools, which the job never pays, are timed."""
    from faithqa_spark.core.process import process_row
    from faithqa_spark.spark.tasks import keep_for_good

    runs = []  # (name, prepared, rows' work, (wall, CPU) seconds per round), in order given
    for config in (args.config, args.compare_config):
        p = prepare(args.file, config, args.set)
        work = p.work()
        t = time.perf_counter()
        for row, ents, near in work[:args.warm_rows]:
            process_row(row, ents, p.index, p.cfg, p.prov, near)
        name = config or "default"
        runs.append((name, p, work, []))
        print(f"{name} ({p.cfg.substitution.policy}): warm-up over "
              f"{min(args.warm_rows, len(work)):,} rows {time.perf_counter() - t:.2f}s", flush=True)
    keep_for_good()
    for _ in range(args.rounds):
        for _, p, work, took in runs:
            t, c = time.perf_counter(), time.process_time()
            for row, ents, near in work:
                process_row(row, ents, p.index, p.cfg, p.prov, near)
            took.append((time.perf_counter() - t, time.process_time() - c))
            keep_for_good()
    for name, _, work, took in runs:
        print(f"{name}: process_row over {len(work):,} rows "
              + ", ".join(f"{w:.2f}s ({c:.2f}s CPU)" for w, c in took)
              + f" (fastest {min(w for w, _ in took):.2f}s, {min(c for _, c in took):.2f}s CPU)")
    (a_name, _, _, a), (b_name, _, _, b) = runs
    for i, what in ((0, "wall"), (1, "CPU")):
        fa, fb = min(x[i] for x in a), min(x[i] for x in b)
        print(f"{a_name} / {b_name} ({what}): {fa / fb:.2f}x (+{fa - fb:.2f}s single-threaded)")


def cmd_run(args: argparse.Namespace) -> None:
    from faithqa_spark.core.audit import AuditBounds, audit_row
    from faithqa_spark.core.audit_summary import audit_counts, audit_report, audit_table, audit_key
    from faithqa_spark.core.process import Provenance, entities_from_records, process_row
    from faithqa_spark.core.nearby import article_of
    from faithqa_spark.core.sampling import SamplingIndex

    p = prepare(args.file, args.config, args.set, args.bank)
    cfg, rows, ents, bank, near, index, prov = (p.cfg, p.rows, p.ents, p.bank, p.near, p.index,
                                                p.prov)
    t = time.time()
    outcomes = [process_row(r, e, index, cfg, prov, nr) for r, e, nr in p.work()]
    took = time.time() - t
    ok = [o for o in outcomes if o[C.STATUS] == C.OK]
    reasons = Counter(o[C.REASON] for o in outcomes if o[C.STATUS] != C.OK)
    bounds = AuditBounds(cfg.sampling.min_length_ratio, cfg.sampling.max_length_ratio)
    t = time.time()
    audits = {o[C.ID]: audit_row(o, bounds) for o in ok}
    audit_took = time.time() - t
    print(f"{args.file} policy={cfg.substitution.policy} bank={sum(bank.counts().values())}"
          f" process {took:.1f}s (audit_row alone over the {len(ok):,} dataset rows: "
          f"{audit_took:.1f}s)")
    print(f"rows {len(outcomes)} ok {len(ok)} success {100 * len(ok) / len(outcomes):.2f}%")
    local = sum(o[C.REPLACEMENT_ENTITY] in near.get(article_of(o), {}).get(o[C.ENTITY_TYPE], ())
                for o in ok)
    print(f"replacement from the row's article: {local:,} of {len(ok):,} rows")
    for reason, n in reasons.most_common():
        print(f"  {reason:<40}{n:>7}")
    print(audit_table(audit_report(audit_counts((o[C.SOURCE], audits[o[C.ID]]) for o in ok))["total"]))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {o[C.ID]: {**{k: o[k] for k in C.DATASET_COLUMNS if k in o}, "audit": audits[o[C.ID]]}
             for o in ok}, ensure_ascii=False))
    if args.filtered:
        Path(args.filtered).write_text(json.dumps(
            {o[C.ID]: {k: o.get(k) for k in (C.REASON, C.ENTITY_TYPE, C.ORIGINAL_ENTITY,
                                              C.REPLACEMENT_ENTITY)}
             for o in outcomes if o[C.STATUS] != C.OK}, ensure_ascii=False))
    if args.fails:
        for flag in args.fails.split(","):
            bad = [o for o in ok if audits[o[C.ID]].get(flag) is False][:args.show]
            for o in bad:
                _show(o, flag)
    if args.show and not args.fails:
        other = None
        if args.compare_config:  # each sampled row as the other config makes it too
            ocfg = load_config(args.compare_config, args.set)
            other_bank = bank_of(ocfg, rows, ents, args.bank)
            other = (ocfg, SamplingIndex.from_bank(other_bank.entities),
                     Provenance("check", ocfg.config_hash, p.model))
        by_id = {r[C.ID]: r for r in rows}
        for o in sorted(ok, key=lambda o: audit_key(args.seed, o[C.ID]))[:args.show]:
            _show(o, "sample")
            if other:
                r = by_id[o[C.ID]]
                alt = process_row(r, entities_from_records(ents[r[C.CONTEXT_ID]]), other[1],
                                  other[0], other[2])
                if alt[C.STATUS] == C.OK:
                    _show(alt, args.compare_config)
                else:
                    print(f"--- [{args.compare_config}] {o[C.ID]} filtered: {alt[C.REASON]}")


def _show(o: dict[str, Any], tag: str) -> None:
    print(f"--- [{tag}] {o[C.ID]} {o[C.ENTITY_TYPE]} {o[C.ORIGINAL_ENTITY]!r} -> "
          f"{o[C.REPLACEMENT_ENTITY]!r}; answer {o[C.ORIGINAL_ANSWER]!r} -> {o[C.FAITHFUL_ANSWER]!r}")
    print("Q:", o[C.QUESTION])
    mod = o[C.MODIFIED_CONTEXT]
    for sp in o[C.MODIFIED_SPANS][:3]:  # each changed region in its sentence
        a, b = sp[C.SPAN_START], sp[C.SPAN_END]
        print(f"   ...{mod[max(0, a - 110):a]}[{mod[a:b]}]{mod[b:b + 70]}...".replace("\n", " "))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    n = sub.add_parser("ner")
    n.add_argument("file")
    n.add_argument("--config", default=None)
    r = sub.add_parser("run")
    r.add_argument("file")
    r.add_argument("--config", default=None)
    r.add_argument("--set", action="append", default=[], help="SECTION.KEY=VALUE override")
    r.add_argument("--bank", default=None, help="load this bank instead of building one")
    r.add_argument("--json", default=None, help="write the ok rows and their flags here")
    r.add_argument("--filtered", default=None,
                   help="write the filtered rows (reason, type, entity) here")
    r.add_argument("--fails", default=None, help="show rows failing these flags (comma list)")
    r.add_argument("--show", type=int, default=0, help="rows to show (seeded audit sample)")
    r.add_argument("--seed", type=int, default=42)
    r.add_argument("--compare-config", default=None,
                   help="with --show: each shown row as this config makes it too")
    tm = sub.add_parser("time")
    tm.add_argument("file")
    tm.add_argument("--config", default=None)
    tm.add_argument("--compare-config", default="conf/paper.toml")
    tm.add_argument("--set", action="append", default=[], help="SECTION.KEY=VALUE override")
    tm.add_argument("--rounds", type=int, default=3)
    tm.add_argument("--warm-rows", type=int, default=3000)
    args = p.parse_args(argv)
    {"ner": cmd_ner, "run": cmd_run, "time": cmd_time}[args.cmd](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
