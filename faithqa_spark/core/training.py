"""SFT and DPO records of a dataset row, in TRL's conversational formats.

- SFT (`SFTTrainer`, `tokenizer.apply_chat_template`): `messages` = system, user (the
  context and the question, from `training.user_template`), assistant (the target).
- DPO (preference): `prompt` = the system and user messages, `chosen` and `rejected` = one
  assistant message each.

Each dataset row gives a *counterfactual* example (modified context -> faithful answer;
rejected: the original answer, what the model's memory says), and, chosen by hash with the
configured shares, two controls that take the row's split, so nothing leaks across splits:
- *factual*: the original context -> the original answer; rejected: the replacement entity,
  a same-type answer the original context does not support (quality check 4);
- *abstention*: a context without either answer (core/controls.py) -> the refusal;
  rejected: the original answer.
Every record carries the row's id; a control's id is `<row id>#<kind>`.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any, Mapping

from faithqa_spark.config import TrainingCfg
from faithqa_spark.core import fields as C
from faithqa_spark.core.hashing import stable_u64
from faithqa_spark.core.templates import render

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = frozenset(string.punctuation)


def squad_normalize(text: str) -> str:
    """SQuAD's answer normalisation: lower case, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def message(role: str, content: str) -> dict[str, str]:
    return {C.ROLE: role, C.CONTENT: content}


def prompt_messages(cfg: TrainingCfg, context: str, question: str) -> list[dict[str, str]]:
    """The system message (left out when the system prompt is empty) and the user turn."""
    user = message("user", render(cfg.user_template, context=context, question=question))
    return [message("system", cfg.system_prompt), user] if cfg.system_prompt else [user]


def record_id(row_id: str, kind: str) -> str:
    """A record's id: the row's id for counterfactual records, `<row id>#<kind>` otherwise."""
    return row_id if kind == C.COUNTERFACTUAL else f"{row_id}#{kind}"


def row_id_of(rec_id: str) -> str:
    """The dataset row id a record id comes from (the inverse of `record_id`)."""
    head, sep, kind = rec_id.rpartition("#")
    return head if sep and kind in RECORD_KINDS else rec_id


RECORD_KINDS = (C.COUNTERFACTUAL, C.FACTUAL, C.ABSTENTION, C.CLARIFICATION, C.CORRECTION)


def chosen_by_share(seed: int, purpose: str, row_id: str, share: float) -> bool:
    """Whether a row is drawn for `purpose`: a stable uniform draw in [0, 1) below `share`
    (share 1 draws every row, 0 none)."""
    return stable_u64(seed, purpose, row_id) / 2.0 ** 64 < share


@dataclass(frozen=True)
class Example:
    """One training example before formatting."""
    kind: str
    context: str
    target: str  # SFT's assistant message, DPO's chosen
    dispreferred: str  # DPO's rejected


def control_kinds(seed: int, row_id: str, cfg: TrainingCfg) -> list[str]:
    """The controls drawn for a row, in output order (independent draws per kind)."""
    out = []
    if chosen_by_share(seed, "control:factual", row_id, cfg.factual_share):
        out.append(C.FACTUAL)
    if chosen_by_share(seed, "control:abstention", row_id, cfg.abstention_share):
        out.append(C.ABSTENTION)
    return out


def examples(row: Mapping[str, Any], abstention_context: str | None, cfg: TrainingCfg,
             seed: int) -> tuple[list[Example], list[str]]:
    """The row's examples (counterfactual first, then its drawn controls) and the kinds that
    were drawn but could not be made (an abstention without a context)."""
    out = [Example(C.COUNTERFACTUAL, row[C.MODIFIED_CONTEXT], row[C.FAITHFUL_ANSWER],
                   row[C.ORIGINAL_ANSWER])]
    missing: list[str] = []
    for kind in control_kinds(seed, row[C.ID], cfg):
        if kind == C.FACTUAL:
            out.append(Example(kind, row[C.ORIGINAL_CONTEXT], row[C.ORIGINAL_ANSWER],
                               row[C.REPLACEMENT_ENTITY]))
        elif abstention_context is None:
            missing.append(kind)
        else:
            out.append(Example(kind, abstention_context, cfg.refusal, row[C.ORIGINAL_ANSWER]))
    return out, missing


def _head(row: Mapping[str, Any], kind: str) -> dict[str, Any]:
    return {C.ID: record_id(row[C.ID], kind), C.KIND: kind, C.SPLIT: row[C.SPLIT],
            C.SOURCE: row[C.SOURCE]}


def sft_record(row: Mapping[str, Any], ex: Example, cfg: TrainingCfg) -> dict[str, Any]:
    """TRL's conversational SFT record: system, user, assistant."""
    messages = prompt_messages(cfg, ex.context, row[C.QUESTION])
    return {**_head(row, ex.kind), C.MESSAGES: messages + [message("assistant", ex.target)]}


def dpo_record(row: Mapping[str, Any], ex: Example, cfg: TrainingCfg) -> dict[str, Any] | None:
    """TRL's conversational preference record, or None when chosen and rejected are the same
    answer after SQuAD normalisation (the pair would teach nothing)."""
    if squad_normalize(ex.target) == squad_normalize(ex.dispreferred):
        return None
    return {**_head(row, ex.kind), C.PROMPT: prompt_messages(cfg, ex.context, row[C.QUESTION]),
            C.CHOSEN: [message("assistant", ex.target)],
            C.DPO_REJECTED: [message("assistant", ex.dispreferred)]}
