"""The dataset card, `DIR/README.md`: a YAML header that `datasets.load_dataset(DIR)` and the
Hugging Face Hub read (configs `default`, `sft`, `dpo`, `dialogues`, each with its splits
under the Hub's names), and a body that says how the data was built, what it holds and
where it falls short. A pure function of the config, report.json and the export counts.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import yaml

from faithqa_spark.config import Config
from faithqa_spark.core import fields as C
from faithqa_spark.core.exports import FILE_EXPORTS
from faithqa_spark.core.training_exports import (EXPORT_KINDS, data_files_pattern,
                                                 selected_exports)

# source -> (Hub license id, how the card names it, where the source comes from)
SOURCE_LICENSES: dict[str, tuple[str, str, str]] = {
    "squad": ("cc-by-sa-4.0", "CC BY-SA 4.0", "SQuAD v1.1 (Rajpurkar et al., 2016)"),
    "triviaqa": ("apache-2.0", "Apache 2.0", "TriviaQA rc (Joshi et al., 2017)"),
}

FIELD_DOCS: dict[str, str] = {
    C.ID: "source-qualified id of the question (`squad:...`, `triviaqa:...`)",
    C.QUESTION: "the question asked of the modified context (coherent policy: the same swap as the context when it names the entity)",
    C.ORIGINAL_QUESTION: "the question as the source has it",
    C.ORIGINAL_CONTEXT: "the context as published",
    C.MODIFIED_CONTEXT: "the context with every occurrence of the answer entity replaced",
    C.ORIGINAL_ANSWER: "the first published answer",
    C.FAITHFUL_ANSWER: "the answer the modified context supports",
    C.ORIGINAL_ENTITY: "the entity of the context matched to the answer",
    C.REPLACEMENT_ENTITY: "the same-type entity from the bank that replaced it",
    C.ENTITY_TYPE: "spaCy NER label of the entity (PERSON, GPE, ORG, DATE, ...)",
    C.SOURCE: "`squad` or `triviaqa`",
    C.SPLIT: "`train`, `dev` or `test` (the Hub's `validation` is `dev`)",
    C.MATCH_STRATEGY: "how the answer was matched to the entity: exact, substring, "
                      "positional, or figure (a figure NER gave no entity for)",
    C.ANSWER_STARTS: "every character offset of the faithful answer in the modified context",
    C.MODIFIED_SPANS: "start/end of each replaced region in the modified context",
    C.NUM_REPLACEMENTS: "how many occurrences were replaced",
    C.PIPELINE_VERSION: "the version of faithqa-spark that built the row",
    C.CONFIG_HASH: "hash of the settings that shape the data",
    C.NER_MODEL: "the spaCy model (name-version) that found the entities",
    C.AUDIT: "the row's audit flags (true pass, false fail, null not applicable)",
}

_EXPORT_DOCS = {
    "sft": "`messages`: system, user (context and question), assistant (the target): TRL's "
           "conversational SFT format (`SFTTrainer`, `apply_chat_template`).",
    "dpo": "`prompt` (system and user messages), `chosen` and `rejected` (one assistant "
           "message each): TRL's conversational preference format (`DPOTrainer`).",
    "dialogues": "`messages`: system, user (a context with the answer's sentence removed, and "
                 "the question), then three more turns; `kind` clarification (the assistant "
                 "asks for what is missing, the user supplies the sentence, the assistant "
                 "answers) or correction (the assistant answers from memory with the original "
                 "answer, the user supplies the sentence, the assistant gives the faithful one).",
}

_KIND_DOCS = {
    C.COUNTERFACTUAL: "modified context; target the faithful answer; DPO rejected: the "
                      "original answer (what the model's memory says). `id` = the row's id.",
    C.FACTUAL: "original context; target the original answer; DPO rejected: the replacement "
               "entity. `id` = `<row id>#factual`.",
    C.ABSTENTION: "a context of another article of the same source and split that holds "
                  "neither answer; target the configured refusal; DPO rejected: the original "
                  "answer. `id` = `<row id>#abstention`.",
}

_LIMITS = [
    "Entities come from a statistical NER model: some answers are matched to the wrong "
    "entity, and a replacement can be the wrong kind of thing for its sentence.",
    "Substitution is literal: other mentions of the same thing (pronouns, a surname alone, "
    "a differently written date) keep the original, so a context can contradict itself.",
    "An abstention context is a different context text of the same source and split; the "
    "rows keep no article title, so a paragraph of the same article can be drawn. It is "
    "checked to hold neither answer nor either entity (case-insensitive, word boundaries), "
    "not to be unrelated to the question.",
    "Dialogue turns are filled templates, not written by people or a model; sentences are "
    "split by a simple rule (abbreviations such as \"U.S.\" at a sentence end join two "
    "sentences).",
    "English only; the questions and original contexts are those of the sources, with "
    "their errors.",
]


def dataset_data_files(formats: Iterable[str]) -> dict[str, str]:
    """The files of the dataset's own export that the card's `default` config points at."""
    formats = set(formats)
    for fmt in ("jsonl", "parquet"):
        if fmt in formats:
            export = next(e for e in FILE_EXPORTS if e.format == fmt)
            return {s: export.pattern(s) for s in C.SPLITS}  # every shard of the split
    return {}


def card_header(cfg: Config, report: Mapping[str, Any], dataset_files: Mapping[str, str],
                training: Mapping[str, Any]) -> dict[str, Any]:
    """The YAML header: `configs` (only splits that have rows), licenses, task tags.
    `dataset_files`: dataset split -> its data_files pattern (empty: no default config)."""
    splits = {s: n for s, n in _dataset_splits(report).items() if n}
    configs: list[dict[str, Any]] = []
    default = [{"split": C.HUB_SPLITS[s], "path": dataset_files[s]}
               for s in C.SPLITS if s in dataset_files and splits.get(s)]
    if default:
        configs.append({"config_name": "default", "data_files": default, "default": True})
    for export in selected_exports(training):
        files = [{"split": C.HUB_SPLITS[s], "path": data_files_pattern(export, s)}
                 for s in C.SPLITS if training[export]["splits"].get(s)]
        if files:
            configs.append({"config_name": export, "data_files": files})
    sources = sorted(report.get("sources", {}))
    licenses = [SOURCE_LICENSES[s][0] for s in sources if s in SOURCE_LICENSES]
    return {
        "pretty_name": f"{cfg.pipeline.name}: counterfactual Faithfulness-QA",
        "language": ["en"],
        "license": licenses[0] if len(licenses) == 1 else (licenses or "other"),
        "task_categories": ["question-answering", "text-generation"],
        "tags": ["faithfulness", "counterfactual", "knowledge-conflict", "rag", "sft", "dpo"],
        "configs": configs,
    }


def dataset_card(cfg: Config, report: Mapping[str, Any], dataset_files: Mapping[str, str],
                 training: Mapping[str, Any]) -> str:
    """The whole README.md: YAML header between `---` lines, then the body."""
    header = yaml.safe_dump(card_header(cfg, report, dataset_files, training),
                            sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{header}---\n\n" + "\n".join(_body(cfg, report, training)) + "\n"


def _dataset_splits(report: Mapping[str, Any]) -> dict[str, int]:
    return {s: sum(src.get("splits", {}).get(s, 0) for src in report.get("sources", {}).values())
            for s in C.SPLITS}


def _table(head: list[str], rows: list[list[Any]]) -> list[str]:
    def cells(xs: list[Any]) -> str:
        return "| " + " | ".join(f"{x:,}" if isinstance(x, int) else str(x) for x in xs) + " |"
    return [cells(head), "|" + "---|" * len(head)] + [cells(r) for r in rows] + [""]


def _body(cfg: Config, report: Mapping[str, Any], training: Mapping[str, Any]) -> list[str]:
    t = cfg.training
    out = [f"# {cfg.pipeline.name}: counterfactual Faithfulness-QA", "",
           "Question answering where the context was changed so that it contradicts what a "
           "model remembers: the answer entity is replaced everywhere in the context by "
           "another entity of the same type, and the faithful answer is the replacement. A "
           "model trained on it must follow the context, not its memory.", "",
           "## How it was built", "",
           "spaCy NER over every distinct context; an entity bank of the types "
           f"{', '.join(cfg.bank.types)}; the first answer matched to an entity of its context "
           "(exact, then substring, then positional); that entity replaced at word boundaries "
           "by a bank entity of the same type within a length ratio of "
           f"{cfg.sampling.min_length_ratio}..{cfg.sampling.max_length_ratio}; six rule-based "
           f"checks; exact {cfg.split.train:.0%}/{cfg.split.dev:.0%}/{cfg.split.test:.0%} "
           "splits per source by rank of a stable hash. Every choice is a hash of "
           f"(seed {cfg.pipeline.seed}, row id): the same input and config give the same "
           "bytes on any machine.", ""]
    # the substitution settings name the policy (paper or coherent) where the config has one
    policy = ", ".join(f"{k}={v}" for k, v in cfg.to_dict()["substitution"].items())
    prov = [("substitution", policy),
            ("config hash", report.get(C.CONFIG_HASH, cfg.config_hash)),
            ("pipeline version", report.get(C.PIPELINE_VERSION, "")),
            ("NER model", report.get(C.NER_MODEL, cfg.ner.model)),
            ("entity bank", report.get("bank", {}).get("origin", ""))]
    out += [f"- {k}: `{v}`" for k, v in prov if v]
    out += ["- the versions of Spark, Delta, spaCy and the inputs' checksums: `manifest.json`",
            ""]
    out += _counts(report, training, t)
    out += _audit(report.get("audit"))
    out += ["## Fields", "", "The dataset (`default` config):", ""]
    out += [f"- `{c}`: {FIELD_DOCS[c]}" for c in C.DATASET_COLUMNS] + [""]
    if training:
        out += ["Every training record has `id`, `kind`, `split` (the dataset's own: train, dev, "
                "test) and `source`; the files use the Hub's split names. Per config:", ""]
        out += [f"- `{e}`: {_EXPORT_DOCS[e]}" for e in selected_exports(training)] + [""]
        out += [f"- kind `{k}`: {d}" for k, d in _KIND_DOCS.items()] + [""]
        out += [f"The system prompt is \"{t.system_prompt}\"; the refusal is \"{t.refusal}\".", ""]
        out += ["```python", "from datasets import load_dataset",
                "ds = load_dataset(\"DIR\")           # the dataset",
                *[f"{e} = load_dataset(\"DIR\", \"{e}\")" for e in selected_exports(training)],
                "```", ""]
    out += ["## Licenses", ""]
    for s in sorted(report.get("sources", {})):
        lic = SOURCE_LICENSES.get(s)
        out.append(f"- {lic[2]}: {lic[1]}; the rows from it carry the same license." if lic
                   else f"- {s}: see the source's license.")
    out += ["", "## Known limits", ""] + [f"- {x}" for x in _LIMITS]
    return out


def _counts(report: Mapping[str, Any], training: Mapping[str, Any], t: Any) -> list[str]:
    out = ["## Counts", ""]
    sources = report.get("sources", {})
    if sources:
        out += _table(["source", "input", "rows", "success rate", "train", "dev", "test"],
                      [[s, v.get("input_records", 0), v.get("success", 0),
                        f"{v.get('success_rate', 0):.1%}",
                        *[v.get("splits", {}).get(x, 0) for x in C.SPLITS]]
                       for s, v in sorted(sources.items())])
    for export in selected_exports(training):
        kinds = training[export]["kinds"]
        out += [f"`{export}` records:", ""]
        out += _table(["kind", *C.SPLITS],
                      [[k, *[kinds[k][s] for s in C.SPLITS]] for k in EXPORT_KINDS[export]])
        skipped = [f"{reason} {n:,} ({kind})" for reason, by_kind in
                   training[export]["skipped"].items() for kind, n in by_kind.items()]
        if skipped:
            out += [f"Drawn but not made: {'; '.join(skipped)}.", ""]
    if training:
        out += [f"Controls: factual {t.factual_share:.0%} and abstention "
                f"{t.abstention_share:.0%} of the rows, drawn by hash; each takes its row's "
                "split.", ""]
    return out


def _audit(audit: Any) -> list[str]:
    """report.json's `audit` section, when an audit ran: per flag (over all sources) the rows
    it applies to, the rows that fail it, and the failure rate."""
    if not isinstance(audit, Mapping) or not isinstance(audit.get("total"), Mapping):
        return []
    flags = audit["total"].get("flags", {})
    rows = [[name, v.get("applies", 0), v.get("fails", 0),
             f"{v['rate']:.2%}" if isinstance(v.get("rate"), (int, float)) else "-"]
            for name, v in flags.items() if isinstance(v, Mapping)]
    if not rows:
        return []
    return ["## Audit", "", "Rule-based checks of every row (report.json's `audit`): "
            "the rows each flag applies to, the rows that fail it, and the failure rate.", ""] \
        + _table(["flag", "applies", "fails", "rate"], rows)
