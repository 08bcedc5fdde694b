"""Scoring predictions against dataset rows as mergeable counts, and counts -> metrics.

Both evaluators use these functions: each (row, prediction) pair becomes a few integer
counters under group keys (`contributions`); the in-process path adds them in a Counter, the
Spark path with one groupBy/sum; `metrics` turns the totals into metrics.json. Integers add
up the same in any order, so both paths give the same file byte for byte (F1 is summed in
units of 1e-9 for that reason).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping, NamedTuple

from faithqa_spark.core import fields as C
from faithqa_spark.core import metrics as M
from faithqa_spark.core.training import row_id_of

KINDS = (C.COUNTERFACTUAL, C.FACTUAL, C.ABSTENTION)
DIMENSIONS = (C.SPLIT, C.SOURCE, C.ENTITY_TYPE, C.MATCH_STRATEGY)
ALL = "all"
NONE = "(none)"  # the group of rows that lack the field
PREDICTIONS_KIND = "(predictions)"  # the key that counts unknown and duplicate predictions
F1_UNIT = 10**9
# Every counter, in a fixed order (the Spark aggregation's columns).
COUNTS = ("rows", "n", "missing", "empty", "unknown", "duplicate", "em", "f1_e9", "correct",
          "ambiguous", "p_o", "p_s", "both", "neither", "refusal", "sent_supported", "sent_counted",
          "ent_supported", "ent_counted")
# What a control inherits from its dataset row when its own record lacks it.
INHERITED = (C.SPLIT, C.SOURCE, C.ENTITY_TYPE, C.MATCH_STRATEGY, C.ORIGINAL_ANSWER)

Key = tuple[str, str, str]  # (kind, dimension, value)


class Settings(NamedTuple):
    """The `[evaluate]` settings the row scorer needs (plain data: broadcastable)."""
    refusal_phrases: tuple[str, ...]
    sentence_support_threshold: float


class RecordError(ValueError):
    """A dataset or control record lacks what scoring needs; the caller adds file and line."""


def source_row_id(record_id: str) -> str | None:
    """The dataset row a control comes from, by the training exports' id rule
    (`core.training.row_id_of`: "squad-12#factual" -> "squad-12"); None when the id names
    no kind."""
    row_id = row_id_of(record_id)
    return row_id if row_id != record_id else None


def _last_content(messages: Any, role: str) -> str | None:
    if not isinstance(messages, list):
        return None
    found = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == role]
    return found[-1] if found else None


def eval_row(record: Mapping[str, Any], split_hint: str | None = None) -> dict[str, Any]:
    """A dataset row or a training-export record -> the fields scoring needs (C.EVAL_FIELDS).

    Without `kind` a record is a dataset row (counterfactual): context = modified_context,
    target = faithful_answer. A control (`kind` factual/abstention) gives `context` and
    `answer`; failing those, the last user and assistant messages of its `messages`.
    """
    rid = record.get(C.ID)
    if not isinstance(rid, str) or not rid:
        raise RecordError("no string 'id'")
    kind = record.get(C.KIND) or C.COUNTERFACTUAL
    if kind not in KINDS:
        raise RecordError(f"id {rid}: unknown kind {kind!r} (known: {', '.join(KINDS)})")
    if kind == C.COUNTERFACTUAL:
        context, answer = record.get(C.MODIFIED_CONTEXT), record.get(C.FAITHFUL_ANSWER)
        need = (C.MODIFIED_CONTEXT, C.FAITHFUL_ANSWER, C.ORIGINAL_ANSWER)
    else:
        context = record.get(C.EVAL_CONTEXT) or _last_content(record.get("messages"), "user")
        answer = record.get(C.EVAL_ANSWER) or _last_content(record.get("messages"), "assistant")
        need = (C.EVAL_CONTEXT, C.EVAL_ANSWER)
    row = {
        C.ID: rid, C.KIND: kind, C.SPLIT: record.get(C.SPLIT) or split_hint,
        C.SOURCE: record.get(C.SOURCE), C.ENTITY_TYPE: record.get(C.ENTITY_TYPE),
        C.MATCH_STRATEGY: record.get(C.MATCH_STRATEGY), C.EVAL_CONTEXT: context,
        C.EVAL_ANSWER: answer, C.ORIGINAL_ANSWER: record.get(C.ORIGINAL_ANSWER),
        C.SOURCE_ID: (record.get(C.SOURCE_ID) or source_row_id(rid)
                      if kind != C.COUNTERFACTUAL else None),
    }
    for field, value in zip(need, (context, answer, row[C.ORIGINAL_ANSWER])):
        if not isinstance(value, str):
            raise RecordError(f"id {rid}: no string {field!r}")
    return row


def inherit(control: Mapping[str, Any], source: Mapping[str, Any] | None) -> dict[str, Any]:
    """A control with the INHERITED fields it lacks taken from its dataset row."""
    out = dict(control)
    for f in INHERITED:
        if out.get(f) is None and source is not None:
            out[f] = source.get(f)
    return out


def group_keys(row: Mapping[str, Any]) -> list[Key]:
    kind = row[C.KIND]
    return [(kind, ALL, ALL)] + [(kind, d, row.get(d) or NONE) for d in DIMENSIONS]


def row_counts(row: Mapping[str, Any], prediction: str | None, s: Settings) -> dict[str, int]:
    """The counters of one dataset row: missing (no prediction), empty (a blank one) or
    scored. Missing and empty rows are reported, never scored."""
    if prediction is None:
        return {"rows": 1, "missing": 1}
    if not prediction.strip():
        return {"rows": 1, "empty": 1}
    kind, context, target = row[C.KIND], row[C.EVAL_CONTEXT], row[C.EVAL_ANSWER]
    c = {"rows": 1, "n": 1, "refusal": int(M.is_refusal(prediction, s.refusal_phrases))}
    c["sent_supported"], c["sent_counted"] = M.sentence_support(
        prediction, context, s.sentence_support_threshold)
    c["ent_supported"], c["ent_counted"] = M.entity_support(prediction, context)
    if kind != C.ABSTENTION:
        em = M.exact_match(prediction, target)
        c["em"] = int(em)
        c["f1_e9"] = round(M.f1_score(prediction, target) * F1_UNIT)
        # accuracy: exact match, or the target answer stated somewhere in the prediction
        c["correct"] = int(em or M.contains_answer(prediction, target))
    if kind == C.COUNTERFACTUAL and not M.distinguishable(row[C.ORIGINAL_ANSWER], target):
        c["ambiguous"] = 1
    elif kind == C.COUNTERFACTUAL:
        p_o, p_s = M.substitution_flags(prediction, row[C.ORIGINAL_ANSWER], target)
        c.update(p_o=int(p_o), p_s=int(p_s), both=int(p_o and p_s),
                 neither=int(not (p_o or p_s)))
    return c


def contributions(row: Mapping[str, Any] | None, prediction: str | None, duplicate: bool,
                  s: Settings) -> list[tuple[Key, dict[str, int]]]:
    """What one joined (dataset row, prediction) pair adds to the totals. `row` None is a
    prediction for an unknown id; `duplicate` a later copy of an id already predicted."""
    if duplicate:
        return [((PREDICTIONS_KIND, ALL, ALL), {"duplicate": 1})]
    if row is None:
        return [((PREDICTIONS_KIND, ALL, ALL), {"unknown": 1})]
    counts = row_counts(row, prediction, s)
    return [(k, counts) for k in group_keys(row)]


def add_up(pairs: Iterable[tuple[Key, Mapping[str, int]]]) -> dict[Key, Counter]:
    """The in-process aggregation (Spark's is one groupBy over the same keys)."""
    totals: dict[Key, Counter] = {}
    for key, counts in pairs:
        totals.setdefault(key, Counter()).update(counts)
    return totals


def _share(num: int, den: int) -> float | None:
    return round(num / den, 6) if den else None


def group_metrics(c: Mapping[str, int], kind: str) -> dict[str, Any]:
    """Counts of one group -> its metrics; a share with a zero denominator is null."""
    n = c.get("n", 0)
    out: dict[str, Any] = {"n": n, "rows": c.get("rows", 0), "missing": c.get("missing", 0),
                           "empty": c.get("empty", 0)}
    if kind != C.ABSTENTION:
        out["em"] = _share(c.get("em", 0), n)
        out["f1"] = round(c.get("f1_e9", 0) / F1_UNIT / n, 6) if n else None
        out["accuracy"] = _share(c.get("correct", 0), n)
    if kind == C.COUNTERFACTUAL:
        # shares of the rows whose two answers a prediction can tell apart
        p_o, p_s, m = c.get("p_o", 0), c.get("p_s", 0), n - c.get("ambiguous", 0)
        out.update(ambiguous=c.get("ambiguous", 0), p_s=_share(p_s, m), p_o=_share(p_o, m),
                   mr=_share(p_o, p_o + p_s), both=_share(c.get("both", 0), m),
                   neither=_share(c.get("neither", 0), m))
    out["refusal_rate"] = _share(c.get("refusal", 0), n)
    out["sentence_support"] = _share(c.get("sent_supported", 0), c.get("sent_counted", 0))
    out["entity_support"] = _share(c.get("ent_supported", 0), c.get("ent_counted", 0))
    return out


def abstention_scores(totals: Mapping[Key, Mapping[str, int]]) -> dict[str, Any]:
    """Refusal as a classifier: positives are the abstention controls, predicted positives
    the scored predictions (of any kind) that contain a refusal phrase."""
    def get(kind: str, name: str) -> int:
        return totals.get((kind, ALL, ALL), {}).get(name, 0)

    tp = get(C.ABSTENTION, "refusal")
    fn = get(C.ABSTENTION, "n") - tp
    fp = get(C.COUNTERFACTUAL, "refusal") + get(C.FACTUAL, "refusal")
    precision, recall = _share(tp, tp + fp), _share(tp, tp + fn)
    # F1 from the counts (2tp / (2tp + fp + fn)); null where there is no abstention row
    f1 = _share(2 * tp, 2 * tp + fp + fn) if tp + fn else None
    return {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall, "f1": f1}


def metrics(totals: Mapping[Key, Mapping[str, int]]) -> dict[str, Any]:
    """All totals -> the metrics.json object (without the run's inputs)."""
    kinds = sorted({k for k, _, _ in totals if k in KINDS}, key=KINDS.index)
    preds = totals.get((PREDICTIONS_KIND, ALL, ALL), {})
    out: dict[str, Any] = {
        # `overall` and the per-field groups cover the counterfactual rows
        "overall": group_metrics(totals.get((C.COUNTERFACTUAL, ALL, ALL), {}),
                                 C.COUNTERFACTUAL),
        "missing": sum(totals.get((k, ALL, ALL), {}).get("missing", 0) for k in kinds),
        "empty": sum(totals.get((k, ALL, ALL), {}).get("empty", 0) for k in kinds),
        "unknown": preds.get("unknown", 0),
        "duplicate": preds.get("duplicate", 0),
    }
    for d in DIMENSIONS:
        out[f"by_{d}"] = {v: group_metrics(c, C.COUNTERFACTUAL)
                          for (k, dim, v), c in sorted(totals.items())
                          if k == C.COUNTERFACTUAL and dim == d}
    out["by_kind"] = {k: group_metrics(totals[(k, ALL, ALL)], k) for k in kinds}
    out["abstention"] = abstention_scores(totals)
    return out


# ---------------------------------------------------------------- baselines

BASELINES = ("memory", "context", "first-entity")


def first_entity(entities: list[Mapping[str, Any]], label: str | None) -> str | None:
    """The text of the first entity (by start offset) with this NER label, or None."""
    found = sorted((e["start"], e["text"]) for e in entities if e["label"] == label)
    return found[0][1] if found else None


def baseline_prediction(kind: str, row: Mapping[str, Any],
                        entities: list[Mapping[str, Any]] | None = None) -> str | None:
    """The prediction of a baseline reader for one row (None: it has nothing to say, and the
    row is left out, i.e. counted as missing):
    memory: the original answer (on every kind: what the model would say without reading);
    context: the row's target (faithful answer, factual answer, or the refusal);
    first-entity: the first entity of the answer's type in the row's context ("" when the
    context has none, counted as an empty prediction)."""
    if kind == "memory":
        return row.get(C.ORIGINAL_ANSWER) or (
            row[C.EVAL_ANSWER] if row[C.KIND] == C.FACTUAL else None)
    if kind == "context":
        return row[C.EVAL_ANSWER]
    if kind == "first-entity":
        if row.get(C.ENTITY_TYPE) is None or entities is None:
            return None
        return first_entity(entities, row[C.ENTITY_TYPE]) or ""
    raise ValueError(f"unknown baseline {kind!r} (known: {', '.join(BASELINES)})")
