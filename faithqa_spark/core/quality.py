"""The paper's six rule-based checks on a substituted sample, in the paper's order."""

from __future__ import annotations

from faithqa_spark.core import reasons
from faithqa_spark.core.text import contains_ci, upper_first


def failed_check(
    original_context: str, modified_context: str, replacement: str, occurrences: int, *,
    min_context_chars: int, max_occurrences: int, min_replacement_chars: int,
) -> str | None:
    """The reason of the first failing check, or None when the sample passes all six.

    `occurrences` counts the original entity in the original context (boundary-respecting,
    i.e. the number of replaced regions).
    """
    # (the coherent policy writes a name that opens a sentence with a capital: "von Loesch"
    # reads "Von Loesch's invasions were ...")
    if replacement not in modified_context and upper_first(replacement) not in modified_context:
        return reasons.REPLACEMENT_NOT_IN_CONTEXT
    if modified_context == original_context:
        return reasons.CONTEXT_UNCHANGED
    if len(modified_context) < min_context_chars:
        return reasons.CONTEXT_TOO_SHORT
    if contains_ci(original_context, replacement):
        return reasons.REPLACEMENT_IN_ORIGINAL
    if occurrences > max_occurrences:
        return reasons.TOO_MANY_OCCURRENCES
    if len(replacement) < min_replacement_chars:
        return reasons.REPLACEMENT_TOO_SHORT
    return None
