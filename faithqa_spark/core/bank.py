"""The typed entity bank: cleaning rules, assembly from counts, and the paper's on-disk format
(one sorted JSON list of strings per type, plus summary.json with the per-type counts)."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from faithqa_spark import fs
from faithqa_spark.config import BankCfg
from faithqa_spark.io import temp_dir
from faithqa_spark.core import fields as C
from faithqa_spark.core.hashing import content_digest
from faithqa_spark.errors import BankError

_POSSESSIVE = re.compile(r"(?:'s|’s|(?<=s)'|(?<=s)’)$")
_CURRENCY = "$£€¥₹"
_QUOTES = "\"'“”‘’«»"


@dataclass(frozen=True)
class EntityBank:
    """Entity texts per type (sorted) and how often each was seen (NER mentions)."""

    entities: dict[str, list[str]]
    frequency: dict[str, dict[str, int]]

    def fingerprint(self) -> str:
        return content_digest(self.entities)

    def counts(self) -> dict[str, int]:
        return {t: len(v) for t, v in self.entities.items()}


def built_origin(cfg: BankCfg) -> str:
    """How a bank built by the pipeline says where it came from (report, Delta table)."""
    return "built from " + ", ".join(cfg.sources) + " contexts"


def strip_possessive(text: str) -> str:
    """The text without a trailing possessive ("Balfe's" -> "Balfe", "Moses'" -> "Moses")."""
    return _POSSESSIVE.sub("", text).rstrip()


def clean_entity(text: str, label: str, cfg: BankCfg) -> str | None:
    """The bank form of one NER mention, or None when the paper's rules (plus our
    corrections, if enabled) keep it out of the bank."""
    if label not in cfg.types:
        return None
    t = text.strip()
    if cfg.drop_junk:
        # a balanced pair of surrounding quotes is not part of the name
        if len(t) >= 2 and t[0] in _QUOTES and t[-1] in _QUOTES:
            t = t[1:-1].strip()
    if cfg.strip_possessives:
        t = strip_possessive(t)
    if not cfg.min_chars <= len(t) <= cfg.max_chars:
        return None
    if t.isdigit() and label not in cfg.digit_only_types:
        return None
    if cfg.drop_junk and not _plausible(t, label, cfg):
        return None
    return t


def bank_mentions(entities: Iterable[Mapping[str, Any]], cfg: BankCfg
                  ) -> Iterator[tuple[str, str]]:
    """(type, bank text) of each NER mention of a context that the bank keeps."""
    for e in entities:
        text = clean_entity(e[C.ENT_TEXT], e[C.ENT_LABEL], cfg)
        if text is not None:
            yield e[C.ENT_LABEL], text


def _plausible(t: str, label: str, cfg: BankCfg) -> bool:
    if not t[0].isalnum() and not (label == "MONEY" and t[0] in _CURRENCY):
        return False  # ".mp3", "-s", "/o/." and the like ("$5 million" is money)
    if "[" in t or "]" in t:
        return False  # residue of citation marks such as "[citation needed]"
    if label in cfg.digit_only_types:
        return any(c.isalnum() for c in t)
    return any(c.isalpha() for c in t)


def assemble(counts: Iterable[tuple[str, str, int]], cfg: BankCfg) -> EntityBank:
    """Bank from (type, cleaned text, mentions) triples; order of the input does not matter."""
    freq: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for etype, text, n in counts:
        freq[etype][text] += n
    if cfg.merge_case_variants:
        freq = {t: _merge_case(v) for t, v in freq.items()}
    if cfg.majority_type:
        freq = _majority_type(freq)
    if cfg.min_frequency:
        # rare names are mostly NER noise; a loaded bank has no counts and keeps all
        freq = {t: {s: n for s, n in v.items() if n >= cfg.min_frequency.get(t, 1)}
                for t, v in freq.items()}
    entities = {t: sorted(freq.get(t, {})) for t in cfg.types}
    frequency = {t: {s: freq[t][s] for s in entities[t]} for t in cfg.types if t in freq}
    return EntityBank(entities, frequency)


def _majority_type(freq: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Each text only under the type NER gives it most often: "Hashimoto" seen 5 times as
    PERSON and once as ORG is no ORG to draw. A tie keeps it under none: NER cannot tell
    what "Kanye West" (5 times PERSON, 5 times GPE) is, so it is drawn as neither."""
    best: dict[str, int] = defaultdict(int)
    ties: dict[str, int] = defaultdict(int)
    for v in freq.values():
        for text, n in v.items():
            key = text.lower()
            if n > best[key]:
                best[key], ties[key] = n, 1
            elif n == best[key]:
                ties[key] += 1
    return {t: {s: n for s, n in v.items() if n >= best[s.lower()] and ties[s.lower()] == 1}
            for t, v in freq.items()}


def _merge_case(variants: Mapping[str, int]) -> dict[str, int]:
    """One surface form per lower-cased text: the most frequent, ties to the smallest."""
    groups: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for text, n in variants.items():
        groups[text.lower()].append((text, n))
    out: dict[str, int] = {}
    for members in groups.values():
        best = min(members, key=lambda m: (-m[1], m[0]))[0]
        out[best] = sum(n for _, n in members)
    return out


def bank_files(bank: EntityBank) -> dict[str, bytes]:
    """The paper's format as file name -> bytes: one sorted JSON list per type,
    summary.json (per-type counts) and frequency.json."""
    files = {f"{etype}.json": (json.dumps(texts, ensure_ascii=False, indent=2) + "\n")
             for etype, texts in bank.entities.items()}
    files["summary.json"] = json.dumps(bank.counts(), indent=2) + "\n"
    files["frequency.json"] = json.dumps(bank.frequency, ensure_ascii=False,
                                         sort_keys=True) + "\n"
    return {name: text.encode("utf-8") for name, text in files.items()}


def save(bank: EntityBank, directory: str | Path, settings: fs.Settings = ()) -> None:
    """Write the paper's format to `directory`, a local path or a URI (`fs`). Locally
    atomically: a temporary directory renamed into place. On other filesystems (object
    stores have no rename) file by file: there the directory is a staging one, published
    with the run's outputs."""
    uri = str(directory)
    if not fs.is_local(uri):
        for name, data in bank_files(bank).items():
            fs.write_bytes(fs.join(uri, name), data, settings)
        return
    target = Path(fs.local_path(uri))
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_dir(target.parent, ".bank-")
    for name, data in bank_files(bank).items():
        (tmp / name).write_bytes(data)
    if target.exists():
        shutil.rmtree(target)
    os.replace(tmp, target)


def load(directory: str | Path, types: Iterable[str], settings: fs.Settings = ()) -> EntityBank:
    """Load a bank in the paper's format from `directory`, a local path or a URI of any
    filesystem `fs` reaches (`settings`: its Hadoop settings, e.g. `fs.spark_hadoop_settings`).
    Types with no file are empty; a missing or unreadable directory, or a file that is not a
    JSON list of strings, is a one-line BankError naming it."""
    uri, types = str(directory), list(types)
    names = _bank_listing(uri, settings)
    entities: dict[str, list[str]] = {}
    for etype in types:
        name = f"{etype}.json"
        if name not in names:
            entities[etype] = []
            continue
        f = fs.join(uri, name)
        data = _read_json(f, settings)
        if not isinstance(data, list) or not all(isinstance(s, str) for s in data):
            raise BankError(f"{f}: must be a JSON list of strings")
        entities[etype] = sorted(set(s.strip() for s in data if s.strip()))
    if not any(entities.values()):
        raise BankError(f"{uri}: no entities of the types {', '.join(types)}")
    frequency = (_read_json(fs.join(uri, "frequency.json"), settings)
                 if "frequency.json" in names else {})
    return EntityBank(entities, frequency)


def _one_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


def _bank_listing(uri: str, settings: fs.Settings) -> set[str]:
    """The names of the files directly in bank directory `uri` (one listing, not a request
    per type: cheaper on object stores)."""
    try:
        found = fs.is_dir(uri, settings)
        files = fs.list_files(uri, settings) if found else []
    except (OSError, ValueError) as e:  # unreachable store, unsupported scheme, bad URI
        raise BankError(f"entity bank directory {uri}: cannot be read: {_one_line(e)}") from None
    if not found:
        raise BankError(f"entity bank directory not found: {uri}")
    return {fs.split_uri(f)[2].rsplit("/", 1)[-1] for f in files}


def _read_json(uri: str, settings: fs.Settings) -> Any:
    try:
        return json.loads(fs.read_bytes(uri, settings).decode("utf-8"))
    except OSError as e:
        raise BankError(f"{uri}: cannot be read: {_one_line(e)}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BankError(f"{uri}: not valid JSON: {e}") from None


def bank_genders(votes: Iterable[tuple[str, str, int]], cfg: BankCfg) -> dict[str, str]:
    """PERSON bank entry -> 'm' / 'f' from corpus pronoun votes: `(mention text, gender,
    count)` triples, e.g. `gender.mention_gender_votes` summed over the bank's contexts. Texts
    are cleaned as the bank cleans them; entries whose votes do not decide are left out (the
    sampling index then asks the name lexicon). Pass the result to
    `SamplingIndex.from_bank(bank.entities, genders)`."""
    from faithqa_spark.core.gender import FEMALE, MALE, gender_from_votes

    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for text, gender, n in votes:
        t = clean_entity(text, "PERSON", cfg)
        if t is not None and gender in (MALE, FEMALE):
            tally[t][0 if gender == MALE else 1] += n
    out = {t: gender_from_votes(m, f) for t, (m, f) in sorted(tally.items())}
    return {t: g for t, g in out.items() if g is not None}
