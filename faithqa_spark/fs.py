"""Files by URI, on whatever filesystem a path names: local paths and `file:` URIs, S3
(`s3a://`, `s3://`, configured from the same Hadoop settings S3A reads), HDFS, GCS and
Azure Data Lake (`gs://`, `abfs://`, `abfss://`), all through `pyarrow.fs`.

The driver and the Python workers use it for what Spark's own readers and writers do not
do (evidence pages, the export shards the executors write, small JSON files, markers). Filesystem objects are cached per
(scheme, authority, settings): S3 and HDFS clients are costly to build and safe to share.
The settings are a plain mapping so they pickle to executors (`ReaderSettings.storage`).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

import pyarrow.fs as pafs

from faithqa_spark.io import temp_file

S3_SCHEMES = ("s3a", "s3", "s3n")
# Hadoop configuration keys this module reads (S3A's names, so one set of settings serves
# Spark and the Python side); `fs.azure.account.key.<account>.dfs.core.windows.net` too.
HADOOP_KEYS = ("fs.s3a.endpoint", "fs.s3a.access.key", "fs.s3a.secret.key",
               "fs.s3a.session.token", "fs.s3a.path.style.access",
               "fs.s3a.connection.ssl.enabled", "fs.s3a.endpoint.region")
SPARK_PREFIX = "spark.hadoop."

Settings = tuple[tuple[str, str], ...]


class UnsupportedFilesystem(ValueError):
    """A URI whose scheme no filesystem here reaches."""


# scheme ":" ["//" authority] path: Hadoop's form. The path is literal, as in Hadoop's
# `Path` (and in the paths Spark's binaryFile reports): no %-decoding, and `?` and `#` are
# part of the name, so no urllib parsing.
_URI = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):(?://([^/]*))?(.*)$", re.DOTALL)


def split_uri(uri: str) -> tuple[str, str, str]:
    """(scheme lower-cased, authority, path); ('', '', uri) for a plain path (a one-letter
    scheme is a Windows drive, so a plain path too)."""
    m = _URI.match(uri)
    if m is None:
        return "", "", uri
    return m.group(1).lower(), m.group(2) or "", m.group(3)


def scheme_of(uri: str) -> str:
    """The URI scheme, lower-cased; '' for a plain path."""
    return split_uri(uri)[0]


def is_local(uri: str) -> bool:
    """True for a plain path or a `file:` URI."""
    return scheme_of(uri) in ("", "file")


def local_path(uri_or_path: str) -> str:
    """The filesystem path of a plain path or a `file:` URI in any of its forms (`file:/a`,
    `file:///a`, `file://localhost/a` -> `/a`), taken literally as Hadoop does: Spark
    reports `file:/d/a b%20c #1.json` for the file named `a b%20c #1.json`. Raises
    ValueError for other schemes."""
    scheme, _, path = split_uri(uri_or_path)
    if scheme == "":
        return uri_or_path
    if scheme != "file":
        raise ValueError(f"{uri_or_path}: not a local path ({scheme}://)")
    return path


def file_key(uri_or_path: str) -> str:
    """One name per file whatever form it is written in: the local path of a plain path or a
    `file:` URI (as Spark's `binaryFile` reports it), the URI itself on other filesystems.
    Matches the path a read task gets back to the input file it stands for."""
    return local_path(uri_or_path) if is_local(uri_or_path) else uri_or_path


def hadoop_settings(conf: Mapping[str, str] | Iterable[tuple[str, str]]) -> Settings:
    """The filesystem settings in `conf` (Hadoop keys such as `fs.s3a.endpoint`, or Spark
    ones such as `spark.hadoop.fs.s3a.endpoint`), as a sorted hashable tuple."""
    items = conf.items() if isinstance(conf, Mapping) else conf
    out: dict[str, str] = {}
    for key, value in items:
        key = key[len(SPARK_PREFIX):] if key.startswith(SPARK_PREFIX) else key
        if key in HADOOP_KEYS or key.startswith("fs.azure.account.key."):
            out[key] = str(value)
    return tuple(sorted(out.items()))


def spark_hadoop_settings(spark: Any) -> Settings:
    """The settings as the running Spark session's Hadoop configuration has them (what
    `--conf spark.hadoop.*` and core-site.xml set), for passing to executors."""
    hconf = spark.sparkContext._jsc.hadoopConfiguration()
    found = [(k, hconf.get(k)) for k in HADOOP_KEYS]
    found += [(k, v) for k, v in spark.sparkContext.getConf().getAll()
              if k.startswith(SPARK_PREFIX + "fs.azure.account.key.")]
    return hadoop_settings([(k, v) for k, v in found if v is not None])


def launch_settings() -> Settings:
    """The settings spark-submit was given (`--conf spark.hadoop.fs.s3a.*`, spark-defaults)
    when this process was started by it, read from its already running JVM; () otherwise
    (pyarrow then finds S3 credentials the AWS way: environment, ~/.aws, instance role).
    Lets the driver check remote input paths before the session is built."""
    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        return ()
    from pyspark import SparkConf, SparkContext

    SparkContext._ensure_initialized()
    return hadoop_settings(SparkConf().getAll())


def _true(value: str | None, default: bool) -> bool:
    return default if value is None else value.strip().lower() == "true"


def _s3(conf: dict[str, str]) -> pafs.FileSystem:
    endpoint = conf.get("fs.s3a.endpoint") or None
    scheme = "https" if _true(conf.get("fs.s3a.connection.ssl.enabled"), True) else "http"
    if endpoint and "://" in endpoint:
        scheme, endpoint = endpoint.split("://", 1)
    return pafs.S3FileSystem(
        access_key=conf.get("fs.s3a.access.key"), secret_key=conf.get("fs.s3a.secret.key"),
        session_token=conf.get("fs.s3a.session.token"),
        region=conf.get("fs.s3a.endpoint.region"), endpoint_override=endpoint, scheme=scheme,
        # S3A's default is virtual-host addressing; path style is for S3-compatible servers
        force_virtual_addressing=not _true(conf.get("fs.s3a.path.style.access"), False))


@lru_cache(maxsize=16)
def _filesystem(scheme: str, authority: str, settings: Settings) -> pafs.FileSystem:
    conf = dict(settings)
    if scheme in ("", "file"):
        return pafs.LocalFileSystem()
    if scheme in S3_SCHEMES:
        return _s3(conf)
    if scheme == "hdfs":
        host, _, port = authority.rpartition(":") if ":" in authority else (authority, "", "")
        return pafs.HadoopFileSystem(host or "default", int(port) if port else 0)
    if scheme == "gs":
        return pafs.GcsFileSystem()
    if scheme in ("abfs", "abfss"):
        # container@account.dfs.core.windows.net
        account = authority.split("@", 1)[-1].split(".", 1)[0]
        key = conf.get(f"fs.azure.account.key.{account}.dfs.core.windows.net")
        return pafs.AzureFileSystem(account, account_key=key)
    raise UnsupportedFilesystem(
        f"unsupported filesystem {scheme}:// (supported: local paths, file:, s3a:, s3:, "
        f"hdfs:, gs:, abfs:, abfss:)")


def resolve(uri: str, settings: Settings = ()) -> tuple[pafs.FileSystem, str]:
    """(filesystem, path inside it) for `uri`; the path is what pyarrow.fs calls take."""
    scheme, authority, path = split_uri(uri)
    if scheme in ("", "file"):
        return _filesystem("", "", ()), local_path(uri)
    if scheme in S3_SCHEMES or scheme == "gs":
        inner = authority + "/" + path.lstrip("/")  # bucket/key
    elif scheme in ("abfs", "abfss"):
        inner = authority.split("@", 1)[0] + "/" + path.lstrip("/")  # container/path
    else:
        inner = path
    return _filesystem(scheme, authority, settings), inner.rstrip("/") or "/"


def open_input(uri: str, settings: Settings = ()) -> IO[bytes]:
    """A binary stream over the file (read sequentially; close it, or use `with`)."""
    fs, path = resolve(uri, settings)
    return fs.open_input_stream(path)


def read_bytes(uri: str, settings: Settings = ()) -> bytes:
    """The whole file."""
    with open_input(uri, settings) as f:
        return f.read()


def file_type(uri: str, settings: Settings = ()) -> str:
    """'file', 'dir' or 'missing'."""
    fs, path = resolve(uri, settings)
    kind = fs.get_file_info(path).type
    return {pafs.FileType.File: "file", pafs.FileType.Directory: "dir"}.get(kind, "missing")


def exists(uri: str, settings: Settings = ()) -> bool:
    return file_type(uri, settings) != "missing"


def is_dir(uri: str, settings: Settings = ()) -> bool:
    return file_type(uri, settings) == "dir"


def list_files(uri: str, settings: Settings = ()) -> list[str]:
    """The files directly inside directory `uri`, as URIs (or paths) of the same form,
    sorted by name."""
    fs, path = resolve(uri, settings)
    infos = fs.get_file_info(pafs.FileSelector(path, recursive=False))
    names = sorted(i.base_name for i in infos if i.type == pafs.FileType.File)
    return [join(uri, n) for n in names]


def write_bytes(uri: str, data: bytes, settings: Settings = ()) -> None:
    """Write the whole file, complete or not at all under its name (`open_output`)."""
    with open_output(uri, settings) as f:
        f.write(data)


@contextmanager
def open_output(uri: str, settings: Settings = ()) -> Iterator[IO[bytes]]:
    """A binary stream that becomes the file `uri` when the block ends without error, and
    leaves no file under that name otherwise. On a local disk it is a hidden temporary file
    beside the target, renamed onto it (so a retried or speculative task replaces the file
    whole); on an object store the upload is one object that appears when it completes.
    Parent directories are created where the filesystem has them."""
    if is_local(uri):
        path = local_path(uri)
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        fd, tmp = temp_file(Path(path))
        try:
            with os.fdopen(fd, "wb") as f:
                yield f
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return
    fs, path = resolve(uri, settings)
    # A process that dies mid-write never completes the upload, so no object appears. After
    # an exception pyarrow still completes it on close (it has no abort), so the object may
    # hold a part: the run is then incomplete by the completion rule (runs.py), and a
    # retried task overwrites the object whole.
    with fs.open_output_stream(path) as stream:
        yield stream


def supports_rename(uri: str) -> bool:
    """Whether the filesystem renames a file or directory atomically (a local disk, HDFS);
    object stores copy instead, so outputs there are written in place."""
    return scheme_of(uri) in ("", "file", "hdfs")


def remove(uri: str, settings: Settings = ()) -> None:
    """Delete a file or a directory tree; nothing when it does not exist."""
    fs, path = resolve(uri, settings)
    kind = fs.get_file_info(path).type
    if kind == pafs.FileType.Directory:
        fs.delete_dir(path)
    elif kind == pafs.FileType.File:
        fs.delete_file(path)


def move(src: str, dst: str, settings: Settings = ()) -> None:
    """Rename `src` to `dst` on one filesystem (`supports_rename` says where that is atomic)."""
    fs, a = resolve(src, settings)
    _, b = resolve(dst, settings)
    fs.move(a, b)


def list_names(uri: str, settings: Settings = ()) -> list[str]:
    """The names directly inside directory `uri` (files and directories), sorted; [] when it
    does not exist."""
    fs, path = resolve(uri, settings)
    infos = fs.get_file_info(pafs.FileSelector(path, allow_not_found=True, recursive=False))
    return sorted(i.base_name for i in infos)


def list_tree(uri: str, settings: Settings = ()) -> list[tuple[str, int]]:
    """(path relative to `uri` with '/' separators, size in bytes) of every file under
    directory `uri`, sorted by path; [] when it does not exist."""
    fs, path = resolve(uri, settings)
    infos = fs.get_file_info(pafs.FileSelector(path, allow_not_found=True, recursive=True))
    root = path.rstrip("/") + "/"
    return sorted((i.path[len(root):] if i.path.startswith(root) else i.base_name, i.size)
                  for i in infos if i.type == pafs.FileType.File)


def join(base: str, *names: str) -> str:
    """`base` with `names` appended as path components, keeping its scheme and authority."""
    if is_local(base) and scheme_of(base) == "":
        return posixpath.join(base, *names)
    return base.rstrip("/") + "/" + "/".join(n.strip("/") for n in names)


def parent(uri: str) -> str:
    """The directory holding `uri` ('.' for a bare local file name)."""
    scheme, authority, path = split_uri(uri)
    if scheme == "":
        return posixpath.dirname(uri) or "."
    head = uri[: len(uri) - len(path)]  # scheme, and "//authority" when there is one
    return head + posixpath.dirname(path.rstrip("/"))
