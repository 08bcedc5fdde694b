"""Fault injection for the fault-tolerance tests, switched on only by an environment variable.

    FAITHQA_FAULT=<point>[:<marker file>]

At `inject(point)` the process dies at once (as if killed). With a marker file it dies only
the first time (the file is created then), so a retried task or a re-run succeeds. Points:
`ner` (a Python worker, inside the NER stage) and `write` (the driver, between output files).
`delta-write` makes the tasks of a Delta table write fail (see `pipeline.write_delta`).
"""

from __future__ import annotations

import os

ENV = "FAITHQA_FAULT"
EXIT_CODE = 77


def active(point: str) -> bool:
    """Whether the fault at `point` is switched on in this process (no marker logic)."""
    return os.environ.get(ENV, "").partition(":")[0] == point


def inject(point: str) -> None:
    spec = os.environ.get(ENV)
    if not spec:
        return
    name, _, marker = spec.partition(":")
    if name != point:
        return
    if marker:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.close(fd)
    os._exit(EXIT_CODE)
