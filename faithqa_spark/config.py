"""Configuration: frozen dataclasses loaded from TOML, with strict validation.

`faithqa_spark/defaults.toml` (package data, so it ships in the wheel) is the one place that
holds the default values (the paper's settings); other files say `extends = "default.toml"`
and override some keys. Every key must be known and of the right type: a mistake is reported
with the key's full name and the file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tomllib
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faithqa_spark.errors import ConfigError

DEFAULT_CONFIG = Path(__file__).resolve().parent / "defaults.toml"
# `extends = "default.toml"` names the packaged defaults, unless a file of that name lies
# next to the extending file (so conf/*.toml work from a checkout and from an installed wheel)
DEFAULTS_NAME = "default.toml"

__all__ = ["Config", "ConfigError", "DEFAULT_CONFIG", "load_config", "parse_override"]


@dataclass(frozen=True)
class PipelineCfg:
    seed: int
    # a salt so two pipelines with the same seed but different purposes stay independent
    name: str


@dataclass(frozen=True)
class NerCfg:
    model: str  # a spaCy package name or a path to a model directory
    batch_size: int
    components: list[str]  # pipes that set doc.ents; all others are excluded at load time


@dataclass(frozen=True)
class BankCfg:
    types: list[str]
    sources: list[str]  # sources whose contexts feed the bank (the paper: SQuAD train only)
    min_chars: int
    max_chars: int
    digit_only_types: list[str]  # types allowed to be all digits
    strip_possessives: bool  # "Balfe's" -> "Balfe" (the published bank keeps them)
    merge_case_variants: bool  # keep one surface form per lower-cased text
    drop_junk: bool  # drop texts with no letter/digit, or starting with punctuation
    min_frequency: dict[str, int]  # per type: entries seen fewer times are left out (absent: 1)
    majority_type: bool  # keep a text only under the type NER gives it most often


@dataclass(frozen=True)
class MatchingCfg:
    min_answer_chars: int
    min_substring_overlap: int
    positional_min_overlap: float  # fraction of the answer's length


@dataclass(frozen=True)
class SamplingCfg:
    min_length_ratio: float
    max_length_ratio: float
    max_attempts: int


POLICIES = ("coherent", "paper")
PUBLISH_MODES = ("auto", "direct")  # output.publish (runs.py)


@dataclass(frozen=True)
class SubstitutionCfg:
    word_boundaries: bool
    policy: str  # "coherent" (every mention, fitting replacements) or "paper" (the paper's)
    present_year: int  # coherent: no swapped year goes past it (or the context's latest year)
    # coherent: filter a row whose organisation's name says no kind of body
    # (`coherent.kindless_org`, reason kindless_organisation): precision over rows
    drop_kindless_orgs: bool


@dataclass(frozen=True)
class QualityCfg:
    min_context_chars: int
    max_occurrences: int
    min_replacement_chars: int


@dataclass(frozen=True)
class SplitCfg:
    train: float
    dev: float
    test: float


@dataclass(frozen=True)
class LimitsCfg:
    max_context_chars: int
    max_success: dict[str, int]  # per source; sources not listed are unlimited


@dataclass(frozen=True)
class TriviaqaCfg:
    max_context_chars: int
    window: int
    evidence: list[str]  # official layout: "wikipedia" (EntityPages) and/or "web" (SearchResults)


@dataclass(frozen=True)
class InputCfg:
    triviaqa_evidence_dir: str  # "" = next to the TriviaQA file
    triviaqa_web_evidence_dir: str  # "" = evidence/web next to the TriviaQA file
    read_part_bytes: int  # an official JSON file gets one read task per this many bytes


@dataclass(frozen=True)
class OutputCfg:
    dir: str
    formats: list[str]
    shard_rows: int  # rows per export file (core/shards.py)
    parquet_row_group_rows: int
    publish: str  # PUBLISH_MODES: how a run's files reach their names (runs.py)


@dataclass(frozen=True)
class SparkCfg:
    app_name: str
    chars_per_ner_partition: int  # NER partitions are sized by text length, not row count
    min_partitions_per_core: int
    log_level: str
    cache_batch_rows: int  # rows per cached columnar batch (bounds a task's heap, see session)


@dataclass(frozen=True)
class DialogueCfg:
    """Turn templates of the clarification and correction dialogues (core/dialogues.py); each
    list holds a few phrasings of one turn, one chosen per row by hash."""
    share: float  # of the rows whose answer sits in one sentence
    correction_share: float  # of the dialogues, the correction path (the rest: clarification)
    missing: dict[str, str]  # entity type -> what the assistant says is missing; "default" else
    clarify_ask: list[str]
    clarify_supply: list[str]
    clarify_answer: list[str]
    memory_answer: list[str]
    correct_supply: list[str]
    correct_answer: list[str]


@dataclass(frozen=True)
class TrainingCfg:
    """The training exports (sft/, dpo/, dialogues/, the card): core/training.py."""
    system_prompt: str
    user_template: str  # must use {context} and {question}
    factual_share: float  # of the dataset rows that also give a factual control
    abstention_share: float  # ... an abstention control
    abstention_pool_size: int  # contexts per (source, split) an abstention context is drawn from
    refusal: str
    dialogue: DialogueCfg


@dataclass(frozen=True)
class EvaluateCfg:
    # phrases that make a prediction a refusal, matched as whole words (never substrings)
    refusal_phrases: list[str]
    # a prediction sentence is supported when this share of its content words is in the context
    sentence_support_threshold: float


@dataclass(frozen=True)
class Config:
    pipeline: PipelineCfg
    ner: NerCfg
    bank: BankCfg
    matching: MatchingCfg
    sampling: SamplingCfg
    substitution: SubstitutionCfg
    quality: QualityCfg
    split: SplitCfg
    limits: LimitsCfg
    triviaqa: TriviaqaCfg
    input: InputCfg
    output: OutputCfg
    spark: SparkCfg
    training: TrainingCfg
    evaluate: EvaluateCfg

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def config_hash(self) -> str:
        """Hash of the settings that shape the dataset; where it is read or written is left out,
        so the same data built into two directories carries the same hash."""
        content = {k: v for k, v in self.to_dict().items() if k not in _IO_SECTIONS}
        blob = json.dumps(content, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def replace(self, **sections: dict[str, Any]) -> Config:
        """A copy with some keys of some sections changed, e.g. `replace(ner={"model": p})`."""
        return _build(Config, _deep_merge(self.to_dict(), sections), "replace()")


# sections that do not shape the dataset (evaluate: how predictions are scored)
_IO_SECTIONS = frozenset({"input", "output", "spark", "evaluate"})


def _check_value(value: Any, tp: Any, key: str, origin: str) -> Any:
    def fail(want: str) -> typing.NoReturn:
        raise ConfigError(
            f"{origin}: key '{key}' must be {want}, got {type(value).__name__} {value!r}")

    if tp is bool:
        if not isinstance(value, bool):
            fail("a boolean")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            fail("an integer")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            fail("a number")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            fail("a string")
        return value
    origin_tp = typing.get_origin(tp)
    if origin_tp is list:
        (item_tp,) = typing.get_args(tp)
        if not isinstance(value, list):
            fail("a list")
        return [_check_value(v, item_tp, f"{key}[{i}]", origin) for i, v in enumerate(value)]
    if origin_tp is dict:
        _, val_tp = typing.get_args(tp)
        if not isinstance(value, dict):
            fail("a table")
        return {k: _check_value(v, val_tp, f"{key}.{k}", origin) for k, v in value.items()}
    raise TypeError(f"unsupported config type {tp!r}")  # pragma: no cover - programming error


def _build(cls: type, data: Any, origin: str, prefix: str = "") -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{origin}: '{prefix.rstrip('.')}' must be a table")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise ConfigError(f"{origin}: unknown key '{prefix}{unknown[0]}'"
                          f" (known keys here: {', '.join(names)})")
    missing = [n for n in names if n not in data]
    if missing:
        raise ConfigError(f"{origin}: missing key '{prefix}{missing[0]}'")
    kwargs = {}
    for name in names:
        tp = hints[name]
        if dataclasses.is_dataclass(tp):
            kwargs[name] = _build(tp, data[name], origin, f"{prefix}{name}.")
        else:
            kwargs[name] = _check_value(data[name], tp, prefix + name, origin)
    return cls(**kwargs)


def _deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def _read_toml(path: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    path = path.resolve()
    if path in seen:
        raise ConfigError(f"{path}: 'extends' loops back to itself")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: {e}") from None
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise ConfigError(f"{path}: key 'extends' must be a string")
    return _deep_merge(_read_toml(extended_path(path, parent), seen + (path,)), data)


def extended_path(path: Path, parent: str) -> Path:
    """The file `extends = parent` in `path` names: relative to `path`'s directory; the name
    "default.toml" with no such file there means the packaged defaults."""
    beside = path.parent / parent
    if parent == DEFAULTS_NAME and not beside.exists():
        return DEFAULT_CONFIG
    return beside


def parse_override(item: str) -> dict[str, Any]:
    """`section.key=value` -> nested dict; the value is read as TOML, else as a bare string."""
    key, sep, raw = item.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"override '{item}' must look like section.key=value")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    out: dict[str, Any] = {}
    node = out
    parts = key.strip().split(".")
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    node[parts[-1]] = value
    return out


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> Config:
    """Load a TOML config (default: the packaged defaults.toml) and apply `section.key=value` overrides."""
    path = Path(path) if path else DEFAULT_CONFIG
    data = _read_toml(path)
    for item in overrides or []:
        data = _deep_merge(data, parse_override(item))
    cfg = _build(Config, data, str(path))
    validate(cfg, str(path))
    return cfg


def validate(cfg: Config, origin: str) -> None:
    """Checks across keys that a type check alone cannot make."""
    s = cfg.split
    if min(s.train, s.dev, s.test) < 0 or abs(s.train + s.dev + s.test - 1.0) > 1e-9:
        raise ConfigError(f"{origin}: split.train + split.dev + split.test must be 1"
                          f" (got {s.train} + {s.dev} + {s.test})")
    sm = cfg.sampling
    if not 0 < sm.min_length_ratio <= sm.max_length_ratio:
        raise ConfigError(f"{origin}: need 0 < sampling.min_length_ratio <= sampling.max_length_ratio")
    if sm.max_attempts < 1:
        raise ConfigError(f"{origin}: sampling.max_attempts must be >= 1")
    if cfg.bank.min_chars < 1 or cfg.bank.max_chars < cfg.bank.min_chars:
        raise ConfigError(f"{origin}: need 1 <= bank.min_chars <= bank.max_chars")
    if not 0 < cfg.matching.positional_min_overlap <= 1:
        raise ConfigError(f"{origin}: matching.positional_min_overlap must be in (0, 1]")
    if cfg.input.read_part_bytes < 1:
        raise ConfigError(f"{origin}: input.read_part_bytes must be >= 1")
    if cfg.ner.batch_size < 1:
        raise ConfigError(f"{origin}: ner.batch_size must be >= 1")
    if not 0 < cfg.evaluate.sentence_support_threshold <= 1:
        raise ConfigError(f"{origin}: evaluate.sentence_support_threshold must be in (0, 1]")
    if cfg.substitution.policy not in POLICIES:
        raise ConfigError(f"{origin}: substitution.policy must be one of {', '.join(POLICIES)}"
                          f" (got '{cfg.substitution.policy}')")
    bad_freq = [t for t, n in cfg.bank.min_frequency.items() if n < 1]
    if bad_freq:
        raise ConfigError(f"{origin}: bank.min_frequency.{bad_freq[0]} must be >= 1")
    known = {"jsonl", "parquet", "squad", "delta", "sft", "dpo", "dialogues", "card"}
    bad = [f for f in cfg.output.formats if f not in known]
    if bad:
        raise ConfigError(f"{origin}: output.formats has unknown format '{bad[0]}'"
                          f" (known: {', '.join(sorted(known))})")
    if cfg.output.shard_rows < 1 or cfg.output.parquet_row_group_rows < 1:
        raise ConfigError(f"{origin}: output.shard_rows and output.parquet_row_group_rows "
                          f"must be >= 1")
    if cfg.output.publish not in PUBLISH_MODES:
        raise ConfigError(f"{origin}: output.publish must be one of {', '.join(PUBLISH_MODES)}"
                          f" (got '{cfg.output.publish}')")
    kinds = cfg.triviaqa.evidence
    if not kinds or not set(kinds) <= {"wikipedia", "web"} or len(set(kinds)) != len(kinds):
        raise ConfigError(f"{origin}: triviaqa.evidence must list 'wikipedia' and/or 'web' "
                          f"once each, got {kinds}")
    _validate_training(cfg.training, origin)


def _validate_training(t: TrainingCfg, origin: str) -> None:
    from faithqa_spark.core.templates import template_problem  # core: no cycle at import

    for key, share in (("factual_share", t.factual_share),
                       ("abstention_share", t.abstention_share),
                       ("dialogue.share", t.dialogue.share),
                       ("dialogue.correction_share", t.dialogue.correction_share)):
        if not 0 <= share <= 1:
            raise ConfigError(f"{origin}: training.{key} must be in [0, 1] (got {share})")
    if t.abstention_pool_size < 1:
        raise ConfigError(f"{origin}: training.abstention_pool_size must be >= 1")
    if "default" not in t.dialogue.missing:
        raise ConfigError(f"{origin}: training.dialogue.missing needs a 'default' entry")
    if not t.refusal.strip():
        raise ConfigError(f"{origin}: training.refusal must not be blank")
    templates = [("user_template", [t.user_template])] + [
        (f"dialogue.{name}", getattr(t.dialogue, name)) for name in _DIALOGUE_TURNS]
    for key, texts in templates:
        if not texts:
            raise ConfigError(f"{origin}: training.{key} needs at least one phrasing")
        for i, text in enumerate(texts):
            problem = template_problem(key.rpartition(".")[2], text)
            if problem:
                raise ConfigError(f"{origin}: training.{key}[{i}]: {problem}")


_DIALOGUE_TURNS = ("clarify_ask", "clarify_supply", "clarify_answer", "memory_answer",
                   "correct_supply", "correct_answer")
