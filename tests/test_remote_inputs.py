"""Inputs and TriviaQA evidence on a remote filesystem (a local S3 server), the `web`
evidence of the official TriviaQA layout, and a TriviaQA-only run without a bank."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from faithqa_spark import fs
from faithqa_spark.cli import parse
from faithqa_spark.core import fields as F
from faithqa_spark.core import reasons as R
from faithqa_spark.inputs import InputError, collect_inputs

from helpers import SAMPLE_SQUAD, SAMPLE_TRIVIAQA, read_rows
from servers import moto_s3

CTX = "Velmora is a harbour town on the river Quillan. It was founded by Odile Marsk in 1712."
WEB = "A travel page: the harbour of Velmora was laid out by Odile Marsk, people say."


def record(qid: str, wiki: tuple[str, ...] = (), web: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"Question": "Who founded Velmora?", "QuestionId": qid,
            "Answer": {"Value": "Odile Marsk", "Aliases": ["Marsk"], "Type": "WikipediaEntity"},
            "EntityPages": [{"DocSource": "TagMe", "Filename": p, "Title": p} for p in wiki],
            "SearchResults": [{"Filename": p, "Rank": i, "Title": p, "Url": "http://x.invalid"}
                              for i, p in enumerate(web)]}


def doc(records: list[dict[str, Any]]) -> bytes:
    return json.dumps({"Data": records, "Domain": "Web", "Version": 1.0}).encode()


# ---------------------------------------------------------------- web evidence

def _web_layout(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    (tmp_path / "qa").mkdir()
    for sub, name, text in (("wikipedia", "Velmora.txt", CTX), ("web", "12/velmora_0.txt", WEB)):
        page = tmp_path / "evidence" / sub / name
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text)
    path = tmp_path / "qa" / "web-dev.json"
    path.write_bytes(doc(records))
    return path


def _read(path: Path, **settings: Any) -> list[dict[str, Any]]:
    return read_rows(path.read_bytes(), path=str(path), source="triviaqa", **settings)


def test_web_evidence_is_read_from_evidence_web_when_configured(tmp_path):
    path = _web_layout(tmp_path, [record("tq_web", web=("12/velmora_0.txt",))])
    row, = _read(path, evidence=("web",))
    assert (row[F.STATUS], row[F.CONTEXT], row[F.ANSWER]) == (F.OK, WEB, "Odile Marsk")
    assert row[F.ANSWER_START] == WEB.index("Odile Marsk")
    # with the default (wikipedia only) the same record has no evidence
    row, = _read(path)
    assert (row[F.STATUS], row[F.REASON], row[F.DETAIL]) == (
        F.FILTERED, R.NO_EVIDENCE_CONTEXT, "no EntityPages")


def test_both_kinds_are_searched_in_the_configured_order(tmp_path):
    path = _web_layout(tmp_path, [record("tq_both", ("Velmora.txt",), ("12/velmora_0.txt",))])
    assert _read(path, evidence=("wikipedia", "web"))[0][F.CONTEXT] == CTX
    assert _read(path, evidence=("web", "wikipedia"))[0][F.CONTEXT] == WEB


def test_unsafe_web_filename_rejects_the_record(tmp_path):
    path = _web_layout(tmp_path, [record("tq_bad", web=("../wikipedia/Velmora.txt",))])
    row, = _read(path, evidence=("web",))
    assert (row[F.STATUS], row[F.REASON]) == (F.REJECTED, R.UNSAFE_EVIDENCE_PATH)
    assert row[F.DETAIL].startswith("SearchResults Filename")


def test_missing_web_page_names_the_web_directory(tmp_path):
    path = _web_layout(tmp_path, [record("tq_gone", web=("12/none.txt",))])
    row, = _read(path, evidence=("web",))
    assert (row[F.STATUS], row[F.REASON]) == (F.REJECTED, R.MISSING_EVIDENCE_FILE)
    assert f"evidence directory: {tmp_path / 'evidence' / 'web'}" in row[F.DETAIL]


def test_config_rejects_unknown_evidence_kind():
    from faithqa_spark.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="triviaqa.evidence"):
        load_config(None, ['triviaqa.evidence=["wikipedia", "news"]'])


# ---------------------------------------------------------------- remote evidence and inputs

def test_evidence_and_inputs_on_s3():
    with moto_s3() as server:
        server.create_bucket("trivia")
        storage = fs.hadoop_settings(server.hadoop_conf())
        fs.write_bytes("s3a://trivia/rc/evidence/wikipedia/Velmora.txt", CTX.encode(), storage)
        s3, base = fs.resolve("s3a://trivia/rc/evidence/wikipedia", storage)
        with s3.open_output_stream(base + "/Who?_#1_100%.txt") as f:  # a literal name
            f.write(CTX.encode())
        fs.write_bytes("s3a://trivia/secret.txt", b"Odile Marsk's private key", storage)
        records = [record("tq_ok", ("Velmora.txt",)), record("tq_up", ("../../secret.txt",)),
                   record("tq_gone", ("Gone.txt",)), record("tq_dot", ("./Velmora.txt",)),
                   record("tq_odd", ("Who?_#1_100%.txt",))]
        uri = "s3a://trivia/rc/qa/wikipedia-dev.json"
        fs.write_bytes(uri, doc(records), storage)
        rows = read_rows(fs.read_bytes(uri, storage), path=uri, source="triviaqa",
                         storage=storage)
        files = collect_inputs(None, ["s3a://trivia/rc/qa/"], storage)
        with pytest.raises(InputError, match="does not exist: s3a://trivia/none.json"):
            collect_inputs(None, ["s3a://trivia/none.json"], storage)
    ok, up, gone, dot, odd = rows
    assert (odd[F.STATUS], odd[F.CONTEXT]) == (F.OK, CTX)
    assert (ok[F.STATUS], ok[F.CONTEXT]) == (F.OK, CTX)
    assert (up[F.STATUS], up[F.REASON]) == (F.REJECTED, R.UNSAFE_EVIDENCE_PATH)
    assert (gone[F.STATUS], gone[F.REASON]) == (F.REJECTED, R.MISSING_EVIDENCE_FILE)
    assert "s3a://trivia/rc/evidence/wikipedia" in gone[F.DETAIL]
    assert dot[F.CONTEXT] == CTX
    assert [(f.source, f.display, f.local) for f in files] == [("triviaqa", uri, uri)]


@pytest.mark.parametrize("name, inside", [
    ("Wikipedia/Page.txt", "Wikipedia/Page.txt"),
    ("a/./b.txt", "a/b.txt"),
    ("a\\b.txt", "a/b.txt"),
    ("Who?_#1_100%.txt", "Who?_#1_100%.txt"),
    ("a/../b.txt", None), ("../x", None), ("/etc/passwd", None), (".", None), ("", None),
])
def test_safe_evidence_name_stays_inside_the_directory(name, inside):
    from faithqa_spark.sources.evidence import safe_evidence_name

    assert safe_evidence_name(name) == inside


# ---------------------------------------------------------------- TriviaQA on its own

def test_triviaqa_only_without_bank_stops_before_spark_saying_what_to_pass():
    with pytest.raises(InputError) as err:
        parse(["--triviaqa", str(SAMPLE_TRIVIAQA)], "build_dataset.py")
    msg = str(err.value)
    assert "\n" not in msg
    assert "--bank DIR" in msg and """--set 'bank.sources=["triviaqa"]'""" in msg


def test_triviaqa_only_runs_with_a_bank_or_its_own_bank_sources(tmp_path):
    bank = tmp_path / "bank"
    bank.mkdir()
    assert parse(["--triviaqa", str(SAMPLE_TRIVIAQA), "--bank", str(bank)], "x").bank_dir
    run = parse(["--triviaqa", str(SAMPLE_TRIVIAQA), "--set", 'bank.sources=["triviaqa"]'], "x")
    assert [f.source for f in run.files] == ["triviaqa"]
    assert parse(["--squad", str(SAMPLE_SQUAD), "--triviaqa", str(SAMPLE_TRIVIAQA)], "x").files


def test_output_uri_is_kept_as_given():
    run = parse(["--squad", str(SAMPLE_SQUAD), "--output", "s3a://bucket/out"], "x")
    assert run.output == "s3a://bucket/out"
