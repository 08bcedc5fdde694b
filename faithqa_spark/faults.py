"""Fault injection for the fault-tolerance tests: one hook, switched on only by the tests.

    FAITHQA_FAULT=<point>[:<marker file>]

`fire(point)` is the hook. It does nothing unless FAITHQA_FAULT names `point`; then it kills
the process at once (as if killed) or, for the points in RAISES, raises. With a marker file
it fires only the first time (the file is created then), so a retried task or a re-run
succeeds. It is called once per task or per stage, never per row or per batch:
`on_first_batch` wraps a task function so that the hook runs once, before the task's first
batch. The points are those in POINTS.
"""

from __future__ import annotations

import itertools
import os
from typing import Callable, Iterator, TypeVar

ENV = "FAITHQA_FAULT"
EXIT_CODE = 77
POINTS: dict[str, str] = {
    "ner": "a Python worker dies at the start of a NER task (checked in the worker)",
    "write": "the driver dies once the dataset is sorted, before its files are written",
    "delta-write": "the tasks of every Delta table write fail (armed from the driver)",
    "shard-write": "a Python worker dies in an export shard's task, its files half written "
                   "(checked in the worker)",
}
RAISES = frozenset({"delta-write"})  # a task error Spark reports, not a dead process

B = TypeVar("B")


class InjectedFault(RuntimeError):
    pass


def spec() -> str | None:
    """This process's FAITHQA_FAULT, if set."""
    return os.environ.get(ENV) or None


def armed(point: str, fault: str | None = None) -> bool:
    """Whether `fault` (default: this process's FAITHQA_FAULT) names `point`."""
    if point not in POINTS:
        raise ValueError(f"unknown fault point {point!r}")
    return (fault if fault is not None else spec() or "").partition(":")[0] == point


def fire(point: str, fault: str | None = None) -> None:
    """The hook: die (or raise) at `point` if `fault` (default: FAITHQA_FAULT) names it."""
    fault = fault if fault is not None else spec()
    if not fault or not armed(point, fault):
        return
    marker = fault.partition(":")[2]
    if marker:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.close(fd)
    if point in RAISES:
        raise InjectedFault(f"fault injected into a Delta write ({ENV}={point})")
    os._exit(EXIT_CODE)


def on_first_batch(point: str, task: Callable[[Iterator[B]], Iterator[B]],
                   fault: str | None = None) -> Callable[[Iterator[B]], Iterator[B]]:
    """`task` with `fire(point, fault)` run once per task, before its first batch (a task
    with no rows is left alone, as it would never have reached the fault)."""
    def guarded(batches: Iterator[B]) -> Iterator[B]:
        it = iter(batches)
        first = next(it, None)
        if first is None:
            return
        fire(point, fault)
        yield from task(itertools.chain([first], it))

    return guarded


def passthrough(batches: Iterator[B]) -> Iterator[B]:
    """A task that changes nothing: what `on_first_batch` wraps to fail a write's tasks."""
    yield from batches
