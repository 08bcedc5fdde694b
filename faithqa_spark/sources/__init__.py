"""Input readers: SQuAD and TriviaQA files -> unified QA rows (`fields.QA_FIELDS`).

Pure Python, no pyspark. Both runners read with `read_file_part`, which streams one file
and makes the rows of a part of it: the Spark job's read tasks each read one part
(several tasks per large file, `inputs.read_parts`), the reference runner each file as one
part, so both see identical rows. `read_file` reads a whole file from its bytes.

Formats (`FORMATS`): `squad_json` (official v1.1/v2.0), `squad_hf` (Hugging Face rows in
JSON Lines or Parquet), `triviaqa_json` (official rc JSON + Wikipedia evidence files),
`triviaqa_hf` (Hugging Face `trivia_qa` rc rows).
"""

from __future__ import annotations

from faithqa_spark.sources.common import InputFileError, ReaderSettings
from faithqa_spark.sources.formats import FORMATS, detect_format, read_file
from faithqa_spark.sources.stream import plan_parts, read_file_part
from faithqa_spark.sources.triviaqa import select_triviaqa_context

__all__ = [
    "FORMATS", "InputFileError", "ReaderSettings", "detect_format", "plan_parts", "read_file",
    "read_file_part", "select_triviaqa_context",
]
