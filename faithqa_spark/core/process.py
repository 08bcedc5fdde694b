"""One QA row in, one outcome out: match, sample, substitute, check.

The function both runners call for every answerable row; it is where the dataset's
content is decided.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from faithqa_spark.config import Config
from faithqa_spark.core import coherent as coh
from faithqa_spark.core import fields as C
from faithqa_spark.core import eras, namekinds, reasons
from faithqa_spark.core.audit import AuditBounds, audit_row, person_mentions, squad_norm
from faithqa_spark.core.gender import pronoun_gender
from faithqa_spark.core.hashing import split_key
from faithqa_spark.core.matching import FIGURE, Entity, Match, match_answer
from faithqa_spark.core.quality import failed_check
from faithqa_spark.core.sampling import SamplingIndex, choose_replacement
from faithqa_spark.core.substitution import substitute


# The fields of a QA row that `process_row` reads (the Spark side ships only these).
ROW_INPUT = [C.ID, C.SOURCE, C.QUESTION, C.CONTEXT, C.ANSWER, C.ANSWER_START, C.INPUT_FILE,
             C.RECORD_LOC]
# Outcome fields copied unchanged from the QA row (outcome name -> row name); the Spark side
# passes these columns through as they are instead of converting them back from Python.
PASS_THROUGH: dict[str, str] = {
    C.ID: C.ID, C.SOURCE: C.SOURCE, C.ORIGINAL_QUESTION: C.QUESTION, C.ORIGINAL_CONTEXT: C.CONTEXT,
    C.ORIGINAL_ANSWER: C.ANSWER, C.INPUT_FILE: C.INPUT_FILE, C.RECORD_LOC: C.RECORD_LOC}


@dataclass(frozen=True)
class Provenance:
    pipeline_version: str
    config_hash: str
    ner_model: str


def entities_from_records(records: Sequence[Mapping[str, Any]] | None) -> list[Entity]:
    return [Entity(r[C.ENT_TEXT], r[C.ENT_LABEL], r[C.ENT_START], r[C.ENT_END])
            for r in records or ()]


_BLANK_OUTCOME: dict[str, Any] = dict.fromkeys(name for name, _ in C.OUTCOME_FIELDS)


def _outcome(row: Mapping[str, Any], cfg: Config, prov: Provenance, **values: Any) -> dict[str, Any]:
    out = dict(_BLANK_OUTCOME)  # a copy of a prepared dict: this runs once per QA row
    for name, from_row in PASS_THROUGH.items():
        out[name] = row[from_row]
    out[C.QUESTION] = row[C.QUESTION]  # the coherent policy may swap the entity in it too
    out.update({
        C.SPLIT_KEY: split_key(cfg.pipeline.seed, row[C.ID]),
        C.PIPELINE_VERSION: prov.pipeline_version, C.CONFIG_HASH: prov.config_hash,
        C.NER_MODEL: prov.ner_model,
    })
    out.update(values)
    return out


def filtered(row: Mapping[str, Any], cfg: Config, prov: Provenance, reason: str,
             **values: Any) -> dict[str, Any]:
    return _outcome(row, cfg, prov, **{C.STATUS: C.FILTERED, C.REASON: reason}, **values)


def row_audit(row: Mapping[str, Any], index: SamplingIndex, cfg: Config) -> dict[str, bool | None]:
    """The `audit` column of a dataset row (`core.audit.audit_row`), with the configured
    length-ratio bounds and the replacement's gender as the sampler knows it
    (`SamplingIndex.gender`: corpus votes when the index has them, else the name lexicon)."""
    s = cfg.sampling
    return audit_row(row, AuditBounds(s.min_length_ratio, s.max_length_ratio), index.gender)


def process_row(row: Mapping[str, Any], entities: Sequence[Entity], index: SamplingIndex,
                cfg: Config, prov: Provenance,
                nearby: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """The outcome of one answerable QA row: a dataset row (status ok, with its `audit`)
    or a filtered row (no audit)."""
    answer, context = row[C.ANSWER], row[C.CONTEXT]
    if len(answer.strip()) < cfg.matching.min_answer_chars:
        return filtered(row, cfg, prov, reasons.ANSWER_TOO_SHORT)
    match = match_answer(answer, context, entities,
                         min_substring_overlap=cfg.matching.min_substring_overlap,
                         positional_min_overlap=cfg.matching.positional_min_overlap)
    if match is None and cfg.substitution.policy == "coherent" and (
            figure := coh.figure_answer(row[C.QUESTION], answer, context,
                                        row.get(C.ANSWER_START), entities)) is not None:
        match = Match(figure, FIGURE)  # a figure NER missed: "(1913)", "in the 1772 First"
    if match is None:
        return filtered(row, cfg, prov, reasons.NO_ENTITY_MATCH)
    if cfg.substitution.policy == "coherent" and (
            year := coh.year_in_name(answer, match.entity)) is not None:
        match = replace(match, entity=year)  # the answer's year, not the name around it
    original = match.entity.text.strip()
    etype = match.entity.label
    ent_values = {C.ORIGINAL_ENTITY: original, C.ENTITY_TYPE: etype,
                  C.MATCH_STRATEGY: match.strategy}
    if cfg.substitution.policy == "coherent":
        out = _coherent_row(row, match, entities, index, cfg, prov, ent_values, nearby)
        if cfg.substitution.drop_kindless_orgs and out[C.STATUS] == C.OK \
                and out[C.ENTITY_TYPE] == "ORG" and coh.kindless_org(out[C.ORIGINAL_ENTITY]):
            # the user's choice of precision over rows (`coherent.kindless_org`)
            return filtered(row, cfg, prov, reasons.KINDLESS_ORG,
                            **{f: out[f] for f in _ENTITY_VALUES})
        return out
    if not index.has_type(etype):
        return filtered(row, cfg, prov, reasons.NO_REPLACEMENT, **ent_values)
    s = cfg.sampling
    replacement = choose_replacement(
        index, etype, original, row[C.ID], seed=cfg.pipeline.seed,
        min_ratio=s.min_length_ratio, max_ratio=s.max_length_ratio, max_attempts=s.max_attempts)
    if replacement is None:
        return filtered(row, cfg, prov, reasons.NO_COMPATIBLE_REPLACEMENT, **ent_values)
    sub = substitute(context, original, replacement, cfg.substitution.word_boundaries)
    ent_values[C.REPLACEMENT_ENTITY] = replacement
    q = cfg.quality
    reason = failed_check(context, sub.text, replacement, sub.count,
                          min_context_chars=q.min_context_chars,
                          max_occurrences=q.max_occurrences,
                          min_replacement_chars=q.min_replacement_chars)
    if reason is not None:
        return filtered(row, cfg, prov, reason, **ent_values)
    out = _outcome(row, cfg, prov, **{
        C.STATUS: C.OK, C.MODIFIED_CONTEXT: sub.text, C.FAITHFUL_ANSWER: replacement,
        C.ANSWER_STARTS: [start for start, _ in sub.spans],
        C.MODIFIED_SPANS: [{C.SPAN_START: a, C.SPAN_END: b} for a, b in sub.spans],
        C.NUM_REPLACEMENTS: sub.count, **ent_values,
    })
    out[C.AUDIT] = row_audit(out, index, cfg)
    return out


# what a filtered row keeps of the coherent policy's work
_ENTITY_VALUES = (C.ORIGINAL_ENTITY, C.ENTITY_TYPE, C.MATCH_STRATEGY, C.REPLACEMENT_ENTITY)


def _coherent_row(row: Mapping[str, Any], match: Match, entities: Sequence[Entity],
                  index: SamplingIndex, cfg: Config, prov: Provenance,
                  ent_values: dict[str, Any],
                  nearby: Mapping[str, Sequence[str]] | None) -> dict[str, Any]:
    """`process_row` under the coherent policy for the matched entity: typed as the corpus
    has it, and made again with another type where NER's reads wrong."""
    answer, context = row[C.ANSWER], row[C.CONTEXT]
    original, etype = ent_values[C.ORIGINAL_ENTITY], match.entity.label
    # the type the corpus (or the gazetteer) gives the entity, before the bank is asked
    # for one: NER's FAC "Majuro" is a GPE, whether or not the bank holds a FAC
    label = coh.corpus_type(match.entity, index)
    if label != coh.PERSON and coh.said_of_a_person(context, original):
        label = coh.PERSON  # "since Mercury's death" (NER's ORG)
    ent_values[C.ENTITY_TYPE] = label
    entity = match.entity if label == etype else replace(match.entity, label=label)
    if not index.has_type(label):
        return filtered(row, cfg, prov, reasons.NO_REPLACEMENT, **ent_values)
    # the kind of name the question asks for, where it asks for NER's own type: "What
    # mountain ...?" takes a mountain first
    asks = coh.asked(row[C.QUESTION], answer, match.entity, label)
    out = _coherent(row, entity, entities, index, cfg, prov, dict(ent_values), nearby,
                    coh.asked_kind(asks, label))

    def again(new_label: str, kind: str | None = None) -> dict[str, Any]:
        """The row made again with the entity typed `new_label` (and the asked `kind`
        drawn first), kept only if it reads right so; else `out`."""
        retyped = _coherent(row, replace(match.entity, label=new_label), entities, index,
                            cfg, prov, {**ent_values, C.ENTITY_TYPE: new_label}, nearby,
                            kind)
        return retyped if retyped[C.STATUS] == C.OK else out

    if out[C.REASON] == reasons.MALFORMED_ENTITY and coh.misread_person(
            out[C.ORIGINAL_ENTITY], label, index):
        # a person NER read as an organisation ("Gaspare Spontini", "Krugman") or as a
        # place or body with a person's title or a regnal name ("Queen Victoria" GPE,
        # "Philip II" ORG)
        return again(coh.PERSON)
    if coh.asked_person(row[C.QUESTION], answer, match.entity, label, index, context):
        return again(coh.PERSON)  # "Who transferred ...?" "Khrushchev" (NER's ORG)
    if coh.listed_person(context, match.entity, label, entities, index):
        return again(coh.PERSON)  # "the idealism of Schopenhauer and Descartes" (NER's GPE)
    if out[C.STATUS] != C.OK or label not in coh.RETYPED:
        return out
    if coh.place_before_head(context, out[C.ORIGINAL_ENTITY], label):
        return again("GPE", namekinds.CITY)  # "Maycomb County" (NER's ORG "Maycomb")
    # ... and the one the question asks for, where NER's is a usual confusion: "In what
    # county is the Tan Hill Inn?" is answered by a place, whatever NER typed "Yorkshire",
    # and "Near what river ...?" takes a river first. Only a row that reads right as NER
    # typed it (its checks of the mentions are no looser) is made again so, and only
    # where the asked type gives a replacement that fits
    if asks is None or asks[0] == label:
        # ... or the one the noun next to it names: "Forbes magazine" takes a newspaper,
        # "the album MDNA" (NER's ORG) a work
        asks = coh.named_with(context, out[C.ORIGINAL_ENTITY], label)
        if asks is None:
            return out
    return again(*asks)


def _era(context: str, etype: str, index: SamplingIndex,
         nearby: Mapping[str, Sequence[str]] | None) -> int | None:
    """When the row's story is set (`core.eras`), for a type whose names belong to a time:
    its context's years, else its article's (once per article)."""
    if etype not in eras.ERA_TYPES or not index.eras.get(etype):
        return None
    own = eras.context_era(context)
    dates = (nearby or {}).get("DATE")
    if own is not None or not dates:
        return own
    return index.per_article((_ERA,), dates, lambda: eras.era_of(dates))


_ERA = "era"  # the first item of the `SamplingIndex.per_article` key of an article's era


# The audit's flags that the coherent policy verifies on every row it makes: a row that
# fails one is filtered (`incoherent_after_swap`), so none reaches the dataset. The row's
# whole audit is computed once, here, and kept as its `audit` column.
_VERIFY = ("original_removed", "name_part_leak", "name_glue", "doubled_article", "answer_span",
           "question_mentions_original")


def _coherent(row: Mapping[str, Any], entity: Entity, entities: Sequence[Entity],
              index: SamplingIndex, cfg: Config, prov: Provenance,
              ent_values: dict[str, Any],
              nearby: Mapping[str, Sequence[str]] | None = None,
              kind: str | None = None) -> dict[str, Any]:
    """`process_row` under the coherent policy (core/coherent.py says what it does). `kind`:
    the kind of name the question asks for (`coherent.asked`), drawn first."""
    context, etype = row[C.CONTEXT], entity.label
    try:
        original = coh.resolve(context, entity, entities)
        ent_values[C.ORIGINAL_ENTITY] = original
        regions = coh.mentions(context, original, etype)
        if not regions:
            return filtered(row, cfg, prov, reasons.CONTEXT_UNCHANGED, **ent_values)
        coh.check_mentions(context, original, etype, regions, entities)
        if coh.org_named_like_person(original, etype, index):
            return filtered(row, cfg, prov, reasons.MALFORMED_ENTITY, **ent_values)
        short = coh.short_form(context, original, regions)
        if short:
            regions = coh.with_short_form(context, regions, short)
        question = row[C.QUESTION]
        asks = coh.question_names(question, original, etype, short)
        gender = name_gender = None
        given = False
        # the words before a place: a city or a state (core/coherent.py `said_as`)
        place = (coh.said_as(context, regions, original) or kind) if etype == "GPE" else None
        # ... and the US state or the country named after a city ("St. Augustine, Florida"),
        # else, for a US city, its state named anywhere in the context ("Florida")
        within = (coh.state_after(context, regions) or coh.state_named(context, original, regions)
                  ) if etype == "GPE" else None
        if etype == coh.PERSON:
            # the audit's own reading of the context's pronouns, so the two always agree
            gender = pronoun_gender(context, person_mentions(context, original))
            name_gender = None if gender else index.gender(original)
            given = index.given_only(original)
        s = cfg.sampling
        draw = dict(seed=cfg.pipeline.seed, min_ratio=s.min_length_ratio,
                    max_ratio=s.max_length_ratio, max_attempts=s.max_attempts,
                    present_year=cfg.substitution.present_year, nearby=nearby,
                    others=coh.other_names(entities, original),
                    places=coh.place_spans(entities),
                    answer=coh.answer_part(context, row[C.ANSWER], row.get(C.ANSWER_START),
                                           regions, etype),
                    era=_era(context, etype, index, nearby))
        replacement = coh.fit(context, original, etype, regions,
                              coh.pool_keys(original, etype, gender, name_gender=name_gender,
                                            given=given, place=place, kind=kind,
                                            within=within),
                              index, row[C.ID],
                              question=question, **draw)
        if replacement is None:
            # which constraint left nothing: the gender, or the rest
            ungendered = gender and coh.fit(context, original, etype, regions,
                                            coh.pool_keys(original, etype, None, given=given),
                                            index, row[C.ID], question=question, **draw)
            reason = reasons.NO_GENDER_MATCH if ungendered else reasons.NO_FITTING_REPLACEMENT
            return filtered(row, cfg, prov, reason, **ent_values)
        ent_values[C.REPLACEMENT_ENTITY] = replacement
        if coh.drops_the(context, original, etype, regions, question) \
                and not coh.keeps_the(replacement, etype, index):
            regions = coh.without_the(context, regions, etype)
        # "New York City Police Department (NYPD)" (the original's own is `short`)
        acronym = None if short else coh.head_acronym(context, original, regions, replacement)
        people = coh.people_swaps(context, original, etype, regions, replacement, index,
                                  draw["places"])
        # ... or a people word swapped with it: "the Scottish National Party (SNP)"
        acronym = acronym or coh.people_acronym(context, people)
        extra = [*people, *coh.acronym_swaps(context, acronym)]
        swap = coh.apply(context, row[C.ANSWER], row.get(C.ANSWER_START), original,
                         replacement, regions, etype, extra)
        if squad_norm(swap.faithful_answer) == squad_norm(row[C.ANSWER]):
            # the answer would not change: no counterfactual (fit() draws none such)
            return filtered(row, cfg, prov, reasons.ANSWER_NOT_SWAPPED, **ent_values)
        if asks:  # the question names the entity: the same swap, or the row goes
            question = coh.swap_question(question, original, etype, short, replacement,
                                          context)
        # ... and the context's other swaps: its longer name's short form ("How big is the
        # NYPD?"), the place of a people word or the people word of a place
        question = coh.with_swaps(question, context, extra, row[C.QUESTION])
    except coh.Refused as r:
        return filtered(row, cfg, prov, r.reason, **ent_values)
    q = cfg.quality
    reason = failed_check(context, swap.text, replacement, len(regions),
                          min_context_chars=q.min_context_chars,
                          max_occurrences=q.max_occurrences,
                          min_replacement_chars=q.min_replacement_chars)
    if reason is not None:
        return filtered(row, cfg, prov, reason, **ent_values)
    values = {C.STATUS: C.OK, C.MODIFIED_CONTEXT: swap.text,
              C.FAITHFUL_ANSWER: swap.faithful_answer, C.ANSWER_STARTS: swap.answer_starts,
              C.MODIFIED_SPANS: [{C.SPAN_START: a, C.SPAN_END: b} for a, b in swap.spans],
              C.NUM_REPLACEMENTS: len(regions), C.QUESTION: question, **ent_values}
    candidate = {**values, C.ORIGINAL_CONTEXT: context, C.ORIGINAL_ANSWER: row[C.ANSWER]}
    audit = row_audit(candidate, index, cfg)
    if any(audit[flag] is False for flag in _VERIFY):
        return filtered(row, cfg, prov, reasons.INCOHERENT_AFTER_SWAP, **ent_values)
    return _outcome(row, cfg, prov, **values, **{C.AUDIT: audit})
