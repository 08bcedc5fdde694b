"""The evaluator end to end on a small dataset directory (the bundled sample through the
reference runner with the rule-based NER), its bad-input handling, the baselines, and Spark
== in-process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from faithqa_spark import baselines, evaluate
from faithqa_spark.config import load_config
from faithqa_spark.core.training import record_id
from faithqa_spark.core.training_exports import shard_path
from faithqa_spark.eval_output import mr_chart_png
from faithqa_spark.inputs import collect_inputs
from faithqa_spark.reference import run_reference

from helpers import DATASET_FILES, SAMPLE_SQUAD, SAMPLE_TRIVIAQA

REFUSAL = "I don't know."
SFT_TRAIN = shard_path("sft", "train")


def _lines(path: Path) -> list[dict]:
    return [json.loads(l) for l in path.read_text().splitlines() if l.strip()]


@pytest.fixture(scope="module")
def dataset_dir(tmp_path_factory, ruler_model) -> Path:
    """The sample through the reference runner (no training exports), plus hand-made
    controls in sft/'s train shard: a factual and an abstention control for three rows (one
    given as chat messages only), with the exports' ids (`<row id>#<kind>`)."""
    out = tmp_path_factory.mktemp("ds")
    # the paper policy: more rows from the sample's tiny bank; the policy is not under test
    cfg = load_config(None, [f'ner.model="{ruler_model}"', 'substitution.policy="paper"',
                             'output.formats=["jsonl", "parquet"]'])
    run_reference(cfg, collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)]), out)
    rows = _lines(out / DATASET_FILES[0])
    sft = [{"id": rows[0]["id"], "kind": "counterfactual", "messages": []}]  # repeats a row
    for i, r in enumerate(rows[:3]):
        other = rows[i + 5]["original_context"]
        sft.append({"id": record_id(r["id"], "factual"), "kind": "factual",
                    "context": r["original_context"], "answer": r["original_answer"]})
        sft.append({"id": record_id(r["id"], "abstention"), "kind": "abstention", "messages": [
            {"role": "system", "content": "Answer from the context."},
            {"role": "user", "content": other}, {"role": "assistant", "content": REFUSAL}]})
    (out / SFT_TRAIN).parent.mkdir()
    (out / SFT_TRAIN).write_text("".join(json.dumps(r) + "\n" for r in sft))
    return out


def _baseline(dataset_dir: Path, kind: str, tmp_path: Path, ruler_model: str) -> Path:
    path = tmp_path / f"{kind}.jsonl"
    assert baselines.main(["--dataset", str(dataset_dir), "--kind", kind, "--output", str(path),
                           "--set", f'ner.model="{ruler_model}"']) == 0
    return path


def _evaluate(dataset_dir: Path, preds: list[Path], out: Path, *extra: str) -> dict:
    args = ["--dataset", str(dataset_dir), "--output", str(out), *extra]
    for p in preds:
        args += ["--predictions", str(p)]
    assert evaluate.main(args) == 0
    return json.loads((out / "metrics.json").read_text())


def test_memory_and_context_baselines_give_their_exact_figures(dataset_dir, tmp_path,
                                                               ruler_model):
    n = sum(len(_lines(p)) for p in (dataset_dir / "jsonl").glob("*.jsonl"))
    mem = _evaluate(dataset_dir, [_baseline(dataset_dir, "memory", tmp_path, ruler_model)],
                    tmp_path / "m")
    assert (mem["overall"]["n"], mem["overall"]["p_o"], mem["overall"]["mr"]) == (n, 1.0, 1.0)
    assert all(g["mr"] == 1.0 for g in mem["by_entity_type"].values())
    ctx = _evaluate(dataset_dir, [_baseline(dataset_dir, "context", tmp_path, ruler_model)],
                    tmp_path / "c")
    o = ctx["overall"]
    assert (o["em"], o["f1"], o["p_s"], o["p_o"], o["mr"]) == (1.0, 1.0, 1.0, 0.0, 0.0)
    assert ctx["by_kind"]["factual"]["accuracy"] == 1.0
    assert ctx["abstention"] == {"tp": 3, "fp": 0, "fn": 0, "precision": 1.0, "recall": 1.0,
                                 "f1": 1.0}
    for m in (mem, ctx):
        assert (m["missing"], m["unknown"], m["duplicate"], m["empty"]) == (0, 0, 0, 0)
    # the controls inherit their dataset row's split and entity type
    assert ctx["by_kind"]["factual"]["n"] == 3


def test_first_entity_baseline_answers_with_an_entity_of_the_type(dataset_dir, tmp_path,
                                                                  ruler_model):
    preds = {r["id"]: r["prediction"]
             for r in _lines(_baseline(dataset_dir, "first-entity", tmp_path, ruler_model))}
    rows = _lines(dataset_dir / DATASET_FILES[0])
    for r in rows:
        assert preds[r["id"]] == "" or preds[r["id"]] in r["modified_context"]
    m = _evaluate(dataset_dir, [tmp_path / "first-entity.jsonl"], tmp_path / "f")
    assert 0 < m["overall"]["em"] <= 1


def test_bad_predictions_are_counted_never_dropped(dataset_dir, tmp_path):
    rows = _lines(dataset_dir / DATASET_FILES[0])
    preds = [{"id": rows[0]["id"], "prediction": rows[0]["faithful_answer"]},
             {"id": rows[0]["id"], "prediction": "a second copy is ignored"},
             {"id": rows[1]["id"], "prediction": "   "},
             {"id": rows[2]["id"], "prediction": None},
             {"id": "no-such-row", "prediction": "Hollin"}]
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in preds))
    m = _evaluate(dataset_dir, [path], tmp_path / "out")
    total = sum(len(_lines(p)) for p in (dataset_dir / "jsonl").glob("*.jsonl")) + 6
    assert (m["unknown"], m["duplicate"], m["empty"]) == (1, 1, 2)
    assert m["missing"] == total - 3
    assert (m["overall"]["n"], m["overall"]["em"]) == (1, 1.0)  # the first copy counts


def test_parquet_predictions_score_like_jsonl(dataset_dir, tmp_path, ruler_model):
    jsonl = _baseline(dataset_dir, "context", tmp_path, ruler_model)
    pq.write_table(pa.Table.from_pylist(_lines(jsonl)), tmp_path / "context.parquet")
    a = _evaluate(dataset_dir, [jsonl], tmp_path / "a")
    b = _evaluate(dataset_dir, [tmp_path / "context.parquet"], tmp_path / "b")
    a.pop("inputs"), b.pop("inputs")
    assert a == b


def test_parquet_export_and_records_flag_read_like_jsonl_and_sft(dataset_dir, tmp_path,
                                                                   ruler_model):
    """The Parquet export when there is no JSONL one, and controls from --records instead of
    sft/: the same metrics."""
    preds = _baseline(dataset_dir, "first-entity", tmp_path, ruler_model)
    a = _evaluate(dataset_dir, [preds], tmp_path / "a")
    copy = tmp_path / "ds"
    shutil.copytree(dataset_dir, copy)
    shutil.rmtree(copy / "jsonl")
    records = tmp_path / "controls.jsonl"
    shutil.move(copy / SFT_TRAIN, records)
    b = _evaluate(copy, [preds], tmp_path / "b", "--records", str(records))
    a.pop("inputs"), b.pop("inputs")
    # every control is read (the baseline may find no entity in an abstention context)
    assert a == b and a["by_kind"]["abstention"]["rows"] == 3


def test_controls_of_a_runs_own_sft_export_link_to_their_rows(tmp_path, ruler_model):
    """The sft/ shards a run writes: every factual and abstention control is read, linked to
    its dataset row (`row_id_of`) and scored; answered with its own target, each is right."""
    out = tmp_path / "ds"
    cfg = load_config(None, [f'ner.model="{ruler_model}"', 'substitution.policy="paper"',
                             "training.factual_share=0.5", "training.abstention_share=0.5"])
    run_reference(cfg, collect_inputs([str(SAMPLE_SQUAD)], [str(SAMPLE_TRIVIAQA)]), out)
    kinds = json.loads((out / "report.json").read_text())["training"]["sft"]["kinds"]
    n = {k: sum(kinds[k].values()) for k in ("factual", "abstention")}
    assert n["factual"] > 0 and n["abstention"] > 0
    preds = [{"id": r["id"], "prediction": r["messages"][-1]["content"]}
             for split in ("train", "dev", "test") for r in _lines(out / shard_path("sft", split))
             if r["kind"] != "counterfactual"]
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in preds))
    m = _evaluate(out, [path], tmp_path / "e")  # the default refusal phrases know the refusal
    factual = m["by_kind"]["factual"]
    assert (factual["n"], factual["accuracy"]) == (n["factual"], 1.0)
    assert (m["abstention"]["tp"], m["abstention"]["fn"]) == (n["abstention"], 0)
    assert m["unknown"] == 0


@pytest.mark.parametrize("name, content, message", [
    ("p.csv", "id,prediction\n", "p.csv: not a JSONL or Parquet file"),
    ("p.jsonl", '{"id": "a", "prediction": "x"}\n{"id": "b", "prediction": \n',
     "p.jsonl: line 2: invalid JSON"),
    ("p.jsonl", '{"id": "a"}\n', "p.jsonl: line 1: no 'prediction' field"),
    ("p.parquet", "not parquet", "p.parquet: not a readable Parquet file"),
])
def test_bad_files_give_one_line_and_status_2(dataset_dir, tmp_path, capsys, name, content,
                                              message):
    (tmp_path / name).write_text(content)
    code = evaluate.main(["--dataset", str(dataset_dir), "--predictions", str(tmp_path / name),
                          "--output", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1


def test_page_in_the_report_and_a_deterministic_chart(dataset_dir, tmp_path, ruler_model):
    copy = tmp_path / "ds"
    shutil.copytree(dataset_dir, copy)
    assert (copy / "report" / "index.html").is_file()  # every run writes the analysis report
    m = _evaluate(copy, [_baseline(dataset_dir, "memory", tmp_path, ruler_model)], tmp_path / "o")
    page = (copy / "report" / "evaluation.html").read_text()
    assert "data:image/png;base64," in page and "entity type: GPE" in page
    assert page == (tmp_path / "o" / "evaluation.html").read_text()
    png = mr_chart_png(m["by_entity_type"])
    assert png is not None and png.startswith(b"\x89PNG") and png == mr_chart_png(
        m["by_entity_type"])


def test_spark_gives_the_same_metrics_json(spark, dataset_dir, tmp_path, ruler_model):
    """From the JSONL export and from a Delta table, on Spark, with duplicates, unknown,
    empty and missing predictions, and controls: the in-process file byte for byte."""
    from faithqa_spark.eval_spark import evaluate_spark
    from faithqa_spark.spark.schema import DATASET_SCHEMA

    preds = _lines(_baseline(dataset_dir, "first-entity", tmp_path, ruler_model))
    preds = preds[1:] + [preds[3], {"id": "nope", "prediction": "x"},
                         {"id": preds[4]["id"], "prediction": ""}]
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in preds))
    delta_copy = tmp_path / "delta_ds"
    shutil.copytree(dataset_dir, delta_copy)
    (spark.read.schema(DATASET_SCHEMA).json(str(dataset_dir / "jsonl"))
     .write.format("delta").save(str(delta_copy / "delta" / "dataset")))
    shutil.rmtree(delta_copy / "jsonl")  # so only the Delta table can be read
    for ds in (dataset_dir, delta_copy):
        out = tmp_path / f"eval-{ds.name}"
        run = evaluate.parse(["--dataset", str(dataset_dir), "--predictions", str(path),
                              "--output", str(out)], "t")
        expected = evaluate.evaluate(run)
        run = evaluate.parse(["--dataset", str(ds), "--predictions", str(path),
                              "--output", str(out)], "t")
        got = evaluate_spark(spark, run)
        got["inputs"] = expected["inputs"]
        assert json.dumps(got, indent=2) == json.dumps(expected, indent=2)
        # preds[3] and preds[4] given twice, "nope" unknown, preds[0] missing
        assert (got["duplicate"], got["unknown"], got["missing"]) == (2, 1, 1)


def test_spark_reports_a_malformed_line_with_its_file_and_line(spark, dataset_dir, tmp_path):
    from faithqa_spark import errors
    from faithqa_spark.eval_spark import evaluate_spark

    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "prediction": "x"}\n{"id": "b", "prediction": \n')
    run = evaluate.parse(["--dataset", str(dataset_dir), "--predictions", str(path)], "t")
    with pytest.raises(Exception) as info:
        evaluate_spark(spark, run)
    err = errors.user_error(info.value)  # the worker's error, found in the Java text
    assert err is not None and str(err).startswith(f"{path}: line 2: invalid JSON")
    assert err.exit_status == errors.USAGE


@pytest.mark.parametrize("path, split", [
    ("d/sft/validation-00000-of-00001.jsonl", "dev"), ("d/sft/train-00002-of-00004.jsonl", "train"),
    ("d/jsonl/test.jsonl", "test"), ("d/parquet/dev/part-00000.parquet", "dev"),
    ("d/jsonl/validation-00000-of-00001.jsonl", "dev"),
    ("d/parquet/test-00001-of-00002.parquet", "test"),
    ("controls.jsonl", None), ("d/sft/validation-extra.jsonl", None),
])
def test_split_hint_reads_dataset_and_shard_names(path, split):
    from faithqa_spark.eval_io import split_hint

    assert split_hint(path) == split
