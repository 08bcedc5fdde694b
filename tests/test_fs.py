"""faithqa_spark.fs: the same calls on a local directory and on an S3-compatible server
(moto, started by the test on 127.0.0.1), configured from Hadoop's S3A settings."""

from __future__ import annotations

import pytest

from faithqa_spark import fs

from servers import moto_s3


@pytest.mark.parametrize("uri, path", [
    ("/a/b c.json", "/a/b c.json"),
    ("rel/x.json", "rel/x.json"),
    # literal, as Hadoop and Spark's binaryFile have them: no %-decoding, '#' is a character
    ("file:/a/b c%20d #1.json", "/a/b c%20d #1.json"),
    ("file:///a/b c.json", "/a/b c.json"),
    ("file://localhost/a/b.json", "/a/b.json"),
    ("C:\\data\\x.json", "C:\\data\\x.json"),
])
def test_local_path_of_every_local_form(uri, path):
    assert fs.is_local(uri)
    assert fs.local_path(uri) == path


def test_local_path_refuses_other_schemes():
    with pytest.raises(ValueError, match="s3a://"):
        fs.local_path("s3a://bucket/x.json")


def test_unknown_scheme_is_a_one_line_error_naming_it():
    with pytest.raises(fs.UnsupportedFilesystem, match=r"^unsupported filesystem ftp://"):
        fs.read_bytes("ftp://host/x.json")


def test_hadoop_settings_take_spark_and_hadoop_keys_and_drop_others():
    got = fs.hadoop_settings({"spark.hadoop.fs.s3a.endpoint": "http://h:1",
                              "fs.s3a.access.key": "k", "spark.executor.memory": "1g",
                              "fs.s3a.impl": "x"})
    assert got == (("fs.s3a.access.key", "k"), ("fs.s3a.endpoint", "http://h:1"))


def test_join_and_parent_keep_scheme_and_authority():
    assert fs.join("s3a://b/data/", "evidence", "web") == "s3a://b/data/evidence/web"
    assert fs.join("/data", "a.txt") == "/data/a.txt"
    assert fs.parent("s3a://b/data/qa/x.json") == "s3a://b/data/qa"
    assert fs.parent("file:///d/qa/x.json") == "file:///d/qa"
    assert fs.parent("file:/d/q#a/x.json") == "file:/d/q#a"
    assert fs.parent("x.json") == "."


def _round_trip(root: str, settings: fs.Settings) -> None:
    fs.write_bytes(fs.join(root, "d", "b.txt"), b"second", settings)
    fs.write_bytes(fs.join(root, "d", "a.txt"), b"first \xc3\xa9", settings)
    assert fs.read_bytes(fs.join(root, "d", "a.txt"), settings) == b"first \xc3\xa9"
    with fs.open_input(fs.join(root, "d", "b.txt"), settings) as f:
        assert f.read(3) == b"sec"
    assert fs.file_type(fs.join(root, "d"), settings) == "dir"
    assert fs.file_type(fs.join(root, "d", "a.txt"), settings) == "file"
    assert not fs.exists(fs.join(root, "d", "none.txt"), settings)
    assert fs.list_files(fs.join(root, "d"), settings) == [
        fs.join(root, "d", "a.txt"), fs.join(root, "d", "b.txt")]


def test_local_round_trip(tmp_path):
    _round_trip(str(tmp_path), ())
    _round_trip(f"file://{tmp_path}", ())
    _round_trip(f"file:{tmp_path}/odd #1 %20", ())
    assert (tmp_path / "odd #1 %20" / "d" / "a.txt").read_bytes() == b"first \xc3\xa9"


def test_s3a_round_trip_on_a_local_s3_server():
    with moto_s3() as server:
        server.create_bucket("faithqa")
        settings = fs.hadoop_settings(server.spark_conf())
        _round_trip("s3a://faithqa/run", settings)
        # s3:// is the same store
        assert fs.read_bytes("s3://faithqa/run/d/b.txt", settings) == b"second"
        _round_trip("s3a://faithqa/odd #1?x=%20", settings)
        with pytest.raises(OSError):
            fs.read_bytes("s3a://faithqa/run/d/none.txt", settings)


def test_settings_from_a_running_spark_session(spark):
    hconf = spark.sparkContext._jsc.hadoopConfiguration()
    hconf.set("fs.s3a.endpoint", "http://127.0.0.1:9")
    hconf.set("fs.s3a.path.style.access", "true")
    try:
        got = dict(fs.spark_hadoop_settings(spark))
    finally:
        hconf.unset("fs.s3a.endpoint")
        hconf.unset("fs.s3a.path.style.access")
    assert got["fs.s3a.endpoint"] == "http://127.0.0.1:9"
    assert got["fs.s3a.path.style.access"] == "true"
