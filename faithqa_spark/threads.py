"""Keeping NER processes single-threaded, which makes spaCy markedly faster.

glibc runs a process on its fast single-thread paths (malloc without locks, among others)
until the process starts a second thread, and then never again. spaCy's NER allocates a
lot, so any idle thread costs it: measured here with en_core_web_md on 2,000 SQuAD
contexts, 12.9 s in a single-threaded process and 15.5 s with one sleeping thread beside it.
Two libraries start such threads on import: numpy's OpenBLAS (a thread pool, unless told to
use one thread; Spark already sets OMP_NUM_THREADS=1 for its Python workers) and pyarrow's
bundled jemalloc (a background purging thread; without it jemalloc purges inline). These
variables must be in the environment before numpy or pyarrow is imported, so they are set
where NER runs: the Spark executors' environment (`spark.executorEnv.*`, which reaches their
Python daemon and workers; session.build_session), the reference runner and the benchmark's
floor, never by importing this package. A value already set is kept.
"""

from __future__ import annotations

import os
from typing import MutableMapping

SINGLE_THREADED_ENV: dict[str, str] = {
    "OMP_NUM_THREADS": "1",
    "JE_ARROW_MALLOC_CONF": "background_thread:false",
}


def single_threaded_env(env: MutableMapping[str, str] | None = None) -> MutableMapping[str, str]:
    """Add SINGLE_THREADED_ENV to `env` (default: os.environ) where not already set."""
    target = os.environ if env is None else env
    for key, value in SINGLE_THREADED_ENV.items():
        target.setdefault(key, value)
    return target
