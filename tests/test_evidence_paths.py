"""TriviaQA evidence names that try to leave the evidence directory (a path traversal):
each form is rejected as `unsafe_evidence_path`, and no file outside the directory is ever
opened. All fixture text is invented."""

from __future__ import annotations

import builtins
import json
import os
from pathlib import Path
from typing import Any

import pytest

from faithqa_spark.core import fields as F
from faithqa_spark.core import reasons as R
from faithqa_spark.sources.triviaqa import safe_evidence_path, unsafe_evidence_name

from helpers import read_trivia, trivia_file

CTX = "Velmora is a harbour town on the river Quillan. It was founded by Odile Marsk in 1712."
SECRET = "Odile Marsk's private key: do-not-leak"


def record(qid: str, pages: tuple[str, ...]) -> dict[str, Any]:
    return {"Question": "Who founded Velmora?", "QuestionId": qid,
            "Answer": {"Value": "Odile Marsk", "Aliases": ["Marsk"], "Type": "WikipediaEntity"},
            "EntityPages": [{"DocSource": "TagMe", "Filename": p, "Title": p} for p in pages],
            "SearchResults": []}


@pytest.fixture()
def secret(tmp_path: Path) -> Path:
    # beside the rc/ tree, so "../.." from the evidence directory reaches it
    path = tmp_path / "secret.txt"
    path.write_text(SECRET)
    return path


def _opened_paths(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    opened: list[str] = []
    real_open = builtins.open

    def spy(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(os.path.realpath(file) if isinstance(file, (str, Path)) else str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    return opened


UNSAFE_FORMS = [
    "../../secret.txt",                 # relative climb
    "Wikipedia/../../../secret.txt",    # climb hidden after a real component
    "..\\..\\secret.txt",               # Windows separators
    "{secret}",                         # absolute path
    "C:\\secret.txt",                   # Windows drive
    "page\x00.txt",                     # NUL truncation
]


@pytest.mark.parametrize("form", UNSAFE_FORMS)
def test_unsafe_evidence_name_rejects_record_and_opens_nothing_outside(
        form: str, tmp_path: Path, secret: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = form.format(secret=secret)
    path = trivia_file(tmp_path, [record("tq_bad", (name, "Velmora.txt")),
                                  record("tq_good", ("Velmora.txt",))], {"Velmora.txt": CTX})
    evidence = os.path.realpath(tmp_path / "rc" / "evidence" / "wikipedia")
    data = path.read_bytes()
    opened = _opened_paths(monkeypatch)
    bad, good = _read(path, data)
    assert (bad[F.STATUS], bad[F.REASON]) == (F.REJECTED, R.UNSAFE_EVIDENCE_PATH)
    assert bad[F.RECORD_LOC] == "question=0" and bad[F.CONTEXT] is None
    assert "outside the evidence directory" in bad[F.DETAIL]
    # the safe record next to it is read as usual
    assert good[F.STATUS] == F.OK and good[F.CONTEXT] == CTX
    outside = [p for p in opened if not p.startswith(evidence + os.sep)]
    assert outside == [], outside
    assert str(secret) not in opened


def _read(path: Path, data: bytes) -> list[dict[str, Any]]:
    from faithqa_spark.sources import ReaderSettings, read_file
    return list(read_file(data, path=str(path), source="triviaqa", settings=ReaderSettings()))


def test_symlink_leaving_the_directory_is_rejected(tmp_path: Path, secret: Path) -> None:
    path = trivia_file(tmp_path, [record("tq_link", ("Link.txt",))], {"Velmora.txt": CTX})
    (tmp_path / "rc" / "evidence" / "wikipedia" / "Link.txt").symlink_to(secret)
    row, = read_trivia(path)
    assert (row[F.STATUS], row[F.REASON]) == (F.REJECTED, R.UNSAFE_EVIDENCE_PATH)
    assert SECRET not in json.dumps(row)


def test_symlinked_directory_leaving_the_directory_is_rejected(tmp_path: Path,
                                                               secret: Path) -> None:
    path = trivia_file(tmp_path, [record("tq_dir", ("Out/secret.txt",))], {"Velmora.txt": CTX})
    (tmp_path / "rc" / "evidence" / "wikipedia" / "Out").symlink_to(tmp_path)
    row, = read_trivia(path)
    assert (row[F.STATUS], row[F.REASON]) == (F.REJECTED, R.UNSAFE_EVIDENCE_PATH)


def test_symlink_inside_the_directory_and_subdirectories_are_fine(tmp_path: Path) -> None:
    path = trivia_file(tmp_path, [record("tq_1", ("Alias.txt",)),
                                  record("tq_2", ("Wikipedia/Velmora.txt",))],
                       {"Velmora.txt": CTX})
    ev = tmp_path / "rc" / "evidence" / "wikipedia"
    (ev / "Alias.txt").symlink_to(ev / "Velmora.txt")
    (ev / "Wikipedia").mkdir()
    (ev / "Wikipedia" / "Velmora.txt").write_text(CTX)
    rows = read_trivia(path)
    assert [(r[F.STATUS], r[F.CONTEXT]) for r in rows] == [(F.OK, CTX), (F.OK, CTX)]


def test_safe_evidence_path_and_name_rules(tmp_path: Path) -> None:
    root = tmp_path / "ev"
    (root / "a").mkdir(parents=True)
    assert safe_evidence_path(str(root), "a/Page.txt") == str((root / "a" / "Page.txt").resolve())
    assert safe_evidence_path(str(root), "Page..txt") is not None  # dots inside a name are fine
    for name in ("../x", "a/../../x", "/etc/passwd", "\\\\server\\share", "D:x", ""):
        assert unsafe_evidence_name(name), name
        assert safe_evidence_path(str(root), name) is None, name
    assert not unsafe_evidence_name("Wikipedia/Odile_Marsk.txt")
