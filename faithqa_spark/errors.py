"""One error spine: every failure meant for the user is a `FaithqaError` with the exit status
it maps to, and `user_error` is the one place that finds it again, also when it was raised in
a Spark Python worker and reached the driver wrapped in Java exceptions (Py4J's text of a
`PythonException`). No import from the rest of the package, so every module can use it.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

USAGE = 2  # bad arguments, config, input paths or model: reported before Spark starts
FAILED = 1  # the run started and could not finish


class FaithqaError(Exception):
    """A failure whose message is meant for the user as it stands (one line)."""

    exit_status = FAILED


class ConfigError(FaithqaError, ValueError):
    """A configuration file or override is invalid; the message names the key."""

    exit_status = USAGE


class InputError(FaithqaError, ValueError):
    """An input path named on the command line is missing, of an unsupported type or given
    twice."""

    exit_status = USAGE


class ModelNotFoundError(FaithqaError, RuntimeError):
    """The spaCy model is not installed, or has no NER component."""

    exit_status = USAGE


class BankError(FaithqaError, ValueError):
    """An entity bank directory (--bank) cannot be used; the message names the file."""


class InputFileError(FaithqaError, ValueError):
    """A whole input file cannot be read (not JSON, empty, wrong layout); record-level
    problems are rows, never errors."""


class DeltaUnavailableError(FaithqaError, RuntimeError):
    """Delta output or the NER cache was asked for, but the session has no Delta Lake."""


class ReconciliationError(FaithqaError, RuntimeError):
    """Rows were lost or duplicated between reading and writing."""


def _classes(base: type[FaithqaError] = FaithqaError) -> dict[str, type[FaithqaError]]:
    out: dict[str, type[FaithqaError]] = {}
    for sub in base.__subclasses__():
        out[sub.__name__] = sub
        out.update(_classes(sub))
    return out


def _worker_pattern() -> re.Pattern[str]:
    # a worker's traceback ends "<module>.<Class>: <message>"; the message is one line
    names = "|".join(sorted(map(re.escape, _classes()), key=len, reverse=True))
    return re.compile(rf"\b({names}): ([^\n]+)")


def user_error(exc: BaseException) -> FaithqaError | None:
    """The user-facing error in `exc`: itself, or the last FaithqaError named in its text
    (a worker's exception reaches the driver as Java exception text); None when there is
    none, i.e. a bug, whose traceback is then the useful output."""
    if isinstance(exc, FaithqaError):
        return exc
    hits = _worker_pattern().findall(str(exc))
    if not hits:
        return None
    name, message = hits[-1]
    cls = _classes()[name]
    err = cls.__new__(cls)  # the message only: a subclass may take other arguments
    Exception.__init__(err, message.strip())
    if isinstance(err, (ConfigError, InputError, ModelNotFoundError)):
        err.exit_status = FAILED  # raised after the run started, e.g. a model gone on a worker
    return err


def report(exc: BaseException, stream: TextIO | None = None) -> int:
    """Print the user-facing one-line form of `exc` and return its exit status; re-raise
    anything that is not a FaithqaError (a bug keeps its traceback)."""
    err = user_error(exc)
    if err is None:
        raise exc
    message = " ".join(str(err).split("\n"))
    print(f"error: {message}", file=stream or sys.stderr)
    return err.exit_status
