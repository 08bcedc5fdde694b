"""Servers the cluster tests start on 127.0.0.1 and stop after them: an S3-compatible object
store (moto's server mode) and a Spark standalone cluster (one master, N workers, started
from pyspark's own `spark-class`). Each is a context manager that stops what it started,
also when the test fails."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The jars `scripts/setup.sh --test` fetches; FAITHQA_S3A_JARS points elsewhere (a checkout
# whose .jars is shared with others).
S3A_JARS_DIR = Path(os.environ.get("FAITHQA_S3A_JARS", REPO / ".jars" / "s3a"))
# moto accepts any credentials; these only have to be the same on every client.
S3_KEY, S3_SECRET = "testing", "testing"


def free_port() -> int:
    """A TCP port nobody listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def s3a_jars() -> list[str]:
    """hadoop-aws and the AWS SDK modules; fails the test with the set-up step to run."""
    jars = sorted(str(p) for p in S3A_JARS_DIR.glob("*.jar"))
    if not any("hadoop-aws" in j for j in jars):
        raise RuntimeError(f"no hadoop-aws jar in {S3A_JARS_DIR}: run scripts/setup.sh --test")
    return jars


@dataclass(frozen=True)
class S3Server:
    endpoint: str  # http://127.0.0.1:PORT

    def hadoop_conf(self) -> dict[str, str]:
        """The Hadoop S3A settings for this server (without the `spark.hadoop.` prefix)."""
        return {
            "fs.s3a.endpoint": self.endpoint,
            "fs.s3a.access.key": S3_KEY,
            "fs.s3a.secret.key": S3_SECRET,
            "fs.s3a.path.style.access": "true",
            "fs.s3a.connection.ssl.enabled": "false",
            "fs.s3a.endpoint.region": "us-east-1",
            # moto answers at once; do not wait minutes on a mistake
            "fs.s3a.attempts.maximum": "2",
            "fs.s3a.retry.limit": "2",
        }

    def spark_conf(self) -> dict[str, str]:
        return {f"spark.hadoop.{k}": v for k, v in self.hadoop_conf().items()}

    def create_bucket(self, name: str) -> None:
        import boto3

        boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=S3_KEY,
                     aws_secret_access_key=S3_SECRET, region_name="us-east-1"
                     ).create_bucket(Bucket=name)


@contextmanager
def moto_s3() -> Iterator[S3Server]:
    """An in-process S3-compatible server on 127.0.0.1 at a free port."""
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield S3Server(f"http://127.0.0.1:{port}")
    finally:
        server.stop()


# ---------------------------------------------------------------- standalone cluster

def _spark_class() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent / "bin" / "spark-class"


def _start(args: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    # its own process group, so stopping it also stops the executors a worker started
    with open(log, "wb") as out:
        return subprocess.Popen([str(_spark_class()), *args], stdout=out, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def _alive_workers(ui_port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{ui_port}/json/", timeout=5) as r:
        state = json.load(r)
    return sum(1 for w in state.get("workers", []) if w.get("state") == "ALIVE")


@contextmanager
def standalone_cluster(tmp: Path, workers: int = 2, cores: int = 1, memory: str = "1g",
                       timeout: float = 180.0) -> Iterator[str]:
    """A Spark standalone master and `workers` workers on 127.0.0.1; yields the master URL
    once every worker has registered. Logs and work dirs live under `tmp`."""
    port, ui = free_port(), free_port()
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOG_DIR": str(tmp),
           "PYSPARK_PYTHON": sys.executable,
           # the executors' Python workers import this checkout's faithqa_spark
           "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH"))
                                         if p)}
    procs = [_start(["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                     "--port", str(port), "--webui-port", str(ui)], tmp / "master.log", env)]
    url = f"spark://127.0.0.1:{port}"
    try:
        for i in range(workers):
            work = tmp / f"worker{i}"
            work.mkdir()
            procs.append(_start(
                ["org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                 "--cores", str(cores), "--memory", memory, "--work-dir", str(work),
                 "--webui-port", str(free_port()), url], tmp / f"worker{i}.log", env))
        deadline = time.monotonic() + timeout
        while True:
            with suppress(OSError, ValueError):
                if _alive_workers(ui) == workers:
                    break
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                logs = "\n".join((tmp / n).read_text(errors="replace")[-2000:]
                                 for n in sorted(os.listdir(tmp)) if n.endswith(".log"))
                raise RuntimeError(f"standalone cluster did not come up:\n{logs}")
            time.sleep(1)
        yield url
    finally:
        for proc in reversed(procs):
            _stop(proc)
