"""The placeholders each training template may use, and rendering: one place for both, so
config validation and the exports agree on what `{name}` means in each template."""

from __future__ import annotations

import string

# template (config key's last part) -> (placeholders it must use, placeholders it may use)
PLACEHOLDERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "user_template": (frozenset({"context", "question"}), frozenset()),
    "clarify_ask": (frozenset(), frozenset({"missing", "question"})),
    "clarify_supply": (frozenset({"sentence"}), frozenset()),
    "clarify_answer": (frozenset({"answer"}), frozenset()),
    "memory_answer": (frozenset({"original_answer"}), frozenset()),
    "correct_supply": (frozenset({"sentence"}), frozenset({"original_answer"})),
    "correct_answer": (frozenset({"answer"}), frozenset({"original_answer"})),
}


def template_problem(name: str, template: str) -> str | None:
    """Why `template` is not a valid `name` template (unknown or missing placeholder, bad
    braces), or None when it is fine."""
    required, optional = PLACEHOLDERS[name]
    try:
        used = {f for _, f, spec, conv in string.Formatter().parse(template) if f is not None}
    except ValueError as e:
        return f"bad braces in {template!r} ({e}; write {{{{ and }}}} for literal braces)"
    unknown = sorted(used - required - optional)
    if unknown:
        allowed = ", ".join("{" + p + "}" for p in sorted(required | optional))
        return f"unknown placeholder {{{unknown[0]}}} (allowed: {allowed})"
    missing = sorted(required - used)
    if missing:
        return f"must use {{{missing[0]}}}"
    return None


def render(template: str, **values: str) -> str:
    """Fill a validated template. Only the template is parsed: braces inside the values
    (a context may hold any text) are copied as they are."""
    return template.format(**values)
