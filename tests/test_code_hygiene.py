"""Checks on the package's source itself."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "faithqa_spark"


def module_names_bound_twice(source: str) -> list[str]:
    """The names a module binds more than once at its top level (assignments, functions,
    classes). A second `_WORD_AFTER` further down a module silently replaces the first for
    every function that reads it: one such had changed which places the coherent policy
    drew, with no test failing."""
    counts: Counter[str] = Counter()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            counts.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            counts[node.target.id] += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            counts[node.name] += 1
    return sorted(name for name, n in counts.items() if n > 1)


def test_the_check_finds_a_name_bound_twice():
    assert module_names_bound_twice("A = 1\ndef f():\n    return A\nA = 2\n") == ["A"]
    assert module_names_bound_twice("A = 1\nB: int = 2\ndef f():\n    A = 3\n") == []


def test_no_module_binds_a_top_level_name_twice():
    found = {str(path.relative_to(PACKAGE)): names
             for path in sorted(PACKAGE.rglob("*.py"))
             if (names := module_names_bound_twice(path.read_text(encoding="utf-8")))}
    assert found == {}
