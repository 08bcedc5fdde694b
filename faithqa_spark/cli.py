"""Command-line arguments shared by the Spark job and the reference runner."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from faithqa_spark import fs
from faithqa_spark.config import Config, load_config
from faithqa_spark.inputs import InputError, InputFile, check_bank_inputs, collect_inputs


@dataclass(frozen=True)
class Run:
    cfg: Config
    files: list[InputFile]
    output: str  # a local path or a URI, as given (a Path would turn s3a://b into s3a:/b)
    bank_dir: str | None
    master: str | None
    ner_cache: str | None


def parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Build a Faithfulness-QA dataset (counterfactual entity substitution) "
                    "from SQuAD and/or TriviaQA files.")
    p.add_argument("--config", help="TOML config (default: the packaged defaults, faithqa_spark/defaults.toml)")
    p.add_argument("--squad", action="append", metavar="FILE",
                   help="SQuAD file (official JSON v1.1/v2.0, or HF layout .jsonl/.parquet); "
                        "a directory means the files in it; repeatable")
    p.add_argument("--triviaqa", action="append", metavar="FILE",
                   help="TriviaQA file (official rc JSON, or HF rc layout .jsonl/.parquet); repeatable")
    p.add_argument("--triviaqa-evidence", metavar="DIR",
                   help="directory of the Wikipedia evidence texts of the official TriviaQA layout "
                        "(default: evidence/wikipedia next to the file)")
    p.add_argument("--output", metavar="DIR", help="output directory (default: output.dir)")
    p.add_argument("--bank", metavar="DIR",
                   help="load this entity bank (the paper's format) instead of building one")
    p.add_argument("--ner-cache", metavar="DIR",
                   help="Delta table of earlier NER results: only contexts not in it are sent "
                        "to NER, and new results are merged into it (the reference runner "
                        "ignores it)")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                   help="override a config key, e.g. --set sampling.max_attempts=20; repeatable")
    p.add_argument("--master", help="Spark master when not started by spark-submit "
                                    "(the reference runner ignores it)")
    return p


def parse(argv: list[str] | None, prog: str) -> Run:
    """Parse and check everything before any Spark or spaCy start-up cost is paid."""
    args = parser(prog).parse_args(argv)
    overrides = list(args.set)
    if args.triviaqa_evidence:
        overrides.append(f"input.triviaqa_evidence_dir={_toml_str(args.triviaqa_evidence)}")
    if args.output:
        overrides.append(f"output.dir={_toml_str(args.output)}")
    cfg = load_config(args.config, overrides)
    storage = fs.launch_settings()
    files = collect_inputs(args.squad, args.triviaqa, storage)
    if args.bank:
        _check_bank(args.bank, storage)
    check_bank_inputs(files, cfg, args.bank)
    return Run(cfg, files, cfg.output.dir, args.bank, args.master, _absolute(args.ner_cache))


def _check_bank(uri: str, storage: fs.Settings) -> None:
    """--bank names a directory that can be listed (a local path or a URI): a one-line
    error naming it otherwise, before Spark starts."""
    try:
        found = fs.is_dir(uri, storage)
    except (OSError, ValueError) as e:  # unreachable store, unsupported scheme
        why = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise InputError(f"--bank {uri}: cannot be read: {why}") from None
    if not found:
        raise InputError(f"--bank: entity bank directory not found: {uri}")


def _absolute(uri: str | None) -> str | None:
    """A local path made absolute (executors may run elsewhere); a URI as given."""
    if uri is None or not fs.is_local(uri):
        return uri
    return str(Path(fs.local_path(uri)).resolve())


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
