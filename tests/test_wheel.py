"""The package installs anywhere: a wheel built from the repo, installed into a directory
outside the checkout, runs the reference runner on its bundled sample with no --config
(the default config is package data)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_wheel_runs_outside_the_checkout(tmp_path, ruler_model):
    src = tmp_path / "src"  # a copy, so the build leaves nothing in the checkout
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    shutil.copytree(REPO / "faithqa_spark", src / "faithqa_spark",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(wheels), str(src)], check=True, cwd=tmp_path)
    (wheel,) = wheels.glob("faithqa_spark-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "faithqa_spark/defaults.toml" in names
    assert "faithqa_spark/sample/squad_sample.json" in names

    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True, cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    sample = site / "faithqa_spark" / "sample" / "squad_sample.json"
    proc = subprocess.run(
        [sys.executable, "-m", "faithqa_spark.reference", "--squad", str(sample),
         "--output", "out", "--set", f'ner.model="{ruler_model}"'],
        cwd=elsewhere, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((elsewhere / "out" / "report.json").read_text())
    assert report["sources"]["squad"]["success"] > 0
    manifest = json.loads((elsewhere / "out" / "manifest.json").read_text())
    assert manifest["config"]["pipeline"]["seed"] == 42  # the packaged defaults
    # the code that ran is the installed copy, not the checkout
    where = subprocess.run([sys.executable, "-c", "import faithqa_spark; print(faithqa_spark.__file__)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True).stdout
    assert where.startswith(str(site))
