"""Column names and field types of every record the pipeline passes around: one place.

Plain Python so that the core stays Spark-free; `faithqa_spark.arrow` and `faithqa_spark.spark.schema` turn these into
Spark StructTypes and pyarrow schemas.
"""

from __future__ import annotations

# ---- unified QA row (what every reader yields) ----
ID = "id"
SOURCE = "source"
QUESTION = "question"
ORIGINAL_QUESTION = "original_question"  # the question as the source has it (`question` may be swapped too)
CONTEXT = "context"
CONTEXT_ID = "context_id"
ANSWER = "answer"
ANSWER_START = "answer_start"
ALIASES = "aliases"
INPUT_FILE = "input_file"
RECORD_LOC = "record_loc"
RECORD_INDEX = "record_index"  # ordinal of the record in its file: orders duplicates
STATUS = "status"
REASON = "reason"
DETAIL = "detail"

# status values
OK = "ok"
FILTERED = "filtered"
REJECTED = "rejected"

# ---- NER output per distinct context ----
ENTITIES = "entities"
ENT_TEXT = "text"
ENT_LABEL = "label"
ENT_START = "start"
ENT_END = "end"

# ---- dataset row ----
ORIGINAL_CONTEXT = "original_context"
MODIFIED_CONTEXT = "modified_context"
ORIGINAL_ANSWER = "original_answer"
FAITHFUL_ANSWER = "faithful_answer"
ORIGINAL_ENTITY = "original_entity"
REPLACEMENT_ENTITY = "replacement_entity"
ENTITY_TYPE = "entity_type"
SPLIT = "split"
MATCH_STRATEGY = "match_strategy"
ANSWER_STARTS = "answer_starts"
MODIFIED_SPANS = "modified_spans"
NUM_REPLACEMENTS = "num_replacements"
PIPELINE_VERSION = "pipeline_version"
CONFIG_HASH = "config_hash"
NER_MODEL = "ner_model"
SPAN_START = "start"
SPAN_END = "end"
# internal: the stable per-row hash that orders rows for capping and splitting
SPLIT_KEY = "split_key"

# Field kinds understood by faithqa_spark.arrow.
STRING, LONG, INT, STRINGS, SPANS, ENTITY_LIST, MENTION_LIST = (
    "string", "long", "int", "array<string>", "spans", "entities", "mentions",
)

QA_FIELDS: list[tuple[str, str]] = [
    (ID, STRING), (SOURCE, STRING), (QUESTION, STRING), (CONTEXT, STRING),
    (CONTEXT_ID, STRING), (ANSWER, STRING), (ANSWER_START, INT), (ALIASES, STRINGS),
    (INPUT_FILE, STRING), (RECORD_LOC, STRING), (RECORD_INDEX, LONG), (STATUS, STRING),
    (REASON, STRING), (DETAIL, STRING),
]

IN_BANK = "in_bank"  # the context belongs to a source the bank is built from
BOOL = "bool"
CONTEXT_FIELDS: list[tuple[str, str]] = [(CONTEXT_ID, STRING), (CONTEXT, STRING), (IN_BANK, BOOL)]
# the context's mentions as the bank keeps them (type, cleaned text); empty unless IN_BANK
BANK_MENTIONS = "bank_mentions"
NER_FIELDS: list[tuple[str, str]] = CONTEXT_FIELDS + [
    (ENTITIES, ENTITY_LIST), (BANK_MENTIONS, MENTION_LIST)]
# The NER table / cache: one row per (context, model name, model version).
MODEL_NAME = "model_name"
MODEL_VERSION = "model_version"
NER_TABLE_FIELDS: list[tuple[str, str]] = [
    (CONTEXT_ID, STRING), (MODEL_NAME, STRING), (MODEL_VERSION, STRING), (ENTITIES, ENTITY_LIST)]
# The entity bank table.
FREQUENCY = "frequency"
ORIGIN = "origin"
BANK_TABLE_FIELDS: list[tuple[str, str]] = [
    (ENTITY_TYPE, STRING), (ENT_TEXT, STRING), (FREQUENCY, LONG), (ORIGIN, STRING)]

# ---- audit (core/audit.py) ----
# One nullable boolean per flag: true = pass, false = fail, null = not applicable or not
# measurable (its inputs are missing). The names are report.json's keys, in report order.
AUDIT = "audit"
AUDIT_FLAGS: tuple[str, ...] = (
    "replacement_present", "original_removed", "context_modified", "length_ratio",
    "answer_offsets", "inside_word", "name_part_leak", "name_glue", "answer_span",
    "date_shape", "cardinal_shape", "doubled_article", "gender_conflict",
    "question_mentions_original",
)
AUDIT_STRUCT = "audit"  # field kind: struct<flag: bool, ...> in AUDIT_FLAGS order
# the column of every dataset row (and outcome): appended to DATASET_FIELDS below
AUDIT_FIELDS: list[tuple[str, str]] = [(AUDIT, AUDIT_STRUCT)]

# The dataset row in output order: the paper's fields first, then ours.
DATASET_FIELDS: list[tuple[str, str]] = [
    (ID, STRING), (QUESTION, STRING), (ORIGINAL_CONTEXT, STRING),
    (MODIFIED_CONTEXT, STRING), (ORIGINAL_ANSWER, STRING), (FAITHFUL_ANSWER, STRING),
    (ORIGINAL_ENTITY, STRING), (REPLACEMENT_ENTITY, STRING), (ENTITY_TYPE, STRING),
    (SOURCE, STRING), (SPLIT, STRING), (MATCH_STRATEGY, STRING), (ANSWER_STARTS, "array<int>"),
    (MODIFIED_SPANS, SPANS), (NUM_REPLACEMENTS, INT), (ORIGINAL_QUESTION, STRING),
    (PIPELINE_VERSION, STRING),
    (CONFIG_HASH, STRING), (NER_MODEL, STRING),
] + AUDIT_FIELDS
DATASET_COLUMNS = [name for name, _ in DATASET_FIELDS]

# What the row processor emits for every OK input row: either a dataset row (status ok,
# split still unset) or a filtered row (status filtered, reason set).
OUTCOME_FIELDS: list[tuple[str, str]] = (
    [(STATUS, STRING), (REASON, STRING), (DETAIL, STRING), (SPLIT_KEY, LONG),
     (INPUT_FILE, STRING), (RECORD_LOC, STRING)]
    + [f for f in DATASET_FIELDS if f[0] != SPLIT]
)

# Rows that did not make it into the dataset (filtered by the pipeline or rejected as
# malformed input), with enough to find them in the input.
LEFTOVER_FIELDS: list[tuple[str, str]] = [
    (ID, STRING), (SOURCE, STRING), (STATUS, STRING), (REASON, STRING), (DETAIL, STRING),
    (INPUT_FILE, STRING), (RECORD_LOC, STRING), (QUESTION, STRING), (ANSWER, STRING),
    (ORIGINAL_ENTITY, STRING), (ENTITY_TYPE, STRING), (MATCH_STRATEGY, STRING),
    (REPLACEMENT_ENTITY, STRING),
]
LEFTOVER_COLUMNS = [name for name, _ in LEFTOVER_FIELDS]

SPLITS = ("train", "dev", "test")

# ---- training exports (core/training.py): TRL's conversational formats ----
KIND = "kind"
MESSAGES = "messages"
PROMPT = "prompt"
CHOSEN = "chosen"
DPO_REJECTED = "rejected"  # the preference format's dispreferred answer (not the status REJECTED)
ROLE = "role"
CONTENT = "content"
MESSAGE_LIST = "messages"  # field kind: array<struct<role, content>>
# record kinds; every record but a counterfactual one has the id `<row id>#<kind>`
COUNTERFACTUAL, FACTUAL, ABSTENTION = "counterfactual", "factual", "abstention"
CLARIFICATION, CORRECTION = "clarification", "correction"
SFT_FIELDS: list[tuple[str, str]] = [
    (ID, STRING), (KIND, STRING), (SPLIT, STRING), (SOURCE, STRING), (MESSAGES, MESSAGE_LIST)]
DPO_FIELDS: list[tuple[str, str]] = [
    (ID, STRING), (KIND, STRING), (SPLIT, STRING), (SOURCE, STRING), (PROMPT, MESSAGE_LIST),
    (CHOSEN, MESSAGE_LIST), (DPO_REJECTED, MESSAGE_LIST)]
DIALOGUE_FIELDS = SFT_FIELDS
# one record (or skipped draw) of a training export, as both runners pass them around
EXPORT = "export"
VALUE = "value"  # the record's JSON line; null for a skipped draw
TRAINING_LINE_FIELDS: list[tuple[str, str]] = [
    (EXPORT, STRING), (ID, STRING), (KIND, STRING), (SPLIT, STRING), (REASON, STRING),
    (VALUE, STRING)]
# the dataset's split names -> the Hugging Face Hub's, used in the exports' file names
HUB_SPLITS = {"train": "train", "dev": "validation", "test": "test"}
# ---- evaluation of model predictions (faithqa_spark.evaluate) ----
# Training-export records (sft/, dpo/) carry KIND; controls also carry the context they
# use and their target answer. Predictions files carry ID and PREDICTION.
PREDICTION = "prediction"
EVAL_CONTEXT = "context"  # the context the model is given (modified, original or unrelated)
EVAL_ANSWER = "answer"  # the target: faithful answer, original answer or refusal text
SOURCE_ID = "source_id"  # a control's dataset row (its id without the kind suffix)
EVAL_FIELDS: list[tuple[str, str]] = [
    (ID, STRING), (KIND, STRING), (SPLIT, STRING), (SOURCE, STRING), (ENTITY_TYPE, STRING),
    (MATCH_STRATEGY, STRING), (EVAL_CONTEXT, STRING), (EVAL_ANSWER, STRING),
    (ORIGINAL_ANSWER, STRING), (SOURCE_ID, STRING),
]
