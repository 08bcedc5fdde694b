"""Why a row is not in the dataset. Every filtered or rejected row carries one of these."""

from __future__ import annotations

# -- the paper's reasons --
ANSWER_TOO_SHORT = "answer_too_short"
NO_ENTITY_MATCH = "no_entity_match"
NO_REPLACEMENT = "no_replacement"  # the matched entity's type has no bank entries
REPLACEMENT_NOT_IN_CONTEXT = "replacement_not_in_modified_context"  # check 1
CONTEXT_UNCHANGED = "context_unchanged"  # check 2
CONTEXT_TOO_SHORT = "modified_context_too_short"  # check 3
REPLACEMENT_IN_ORIGINAL = "replacement_in_original_context"  # check 4
TOO_MANY_OCCURRENCES = "too_many_occurrences"  # check 5
REPLACEMENT_TOO_SHORT = "replacement_too_short"  # check 6
# -- ours --
NO_COMPATIBLE_REPLACEMENT = "no_compatible_replacement"  # none of the type within the length ratio and distinct from the original
UNANSWERABLE = "unanswerable"  # SQuAD v2.0 is_impossible
NO_EVIDENCE_CONTEXT = "no_evidence_context"  # TriviaQA: no evidence text holds the answer
OVER_SOURCE_CAP = "over_source_cap"  # e.g. the release's 50,000 TriviaQA successes
# -- the coherent policy's: rows that cannot be made coherent --
AMBIGUOUS_NAME_PART = "ambiguous_name_part"  # another person of the context shares a part of the name
NAME_INSIDE_NAME = "mention_inside_longer_name"  # a mention sits inside another name ("Golden" in "the Golden mean")
UNMAPPED_NAME_PART = "unmapped_name_part"  # a middle name alone, with no matching part in any replacement
MALFORMED_ENTITY = "malformed_entity"  # the matched entity does not look like its type (e.g. a DATE of no known shape)
NO_FITTING_REPLACEMENT = "no_fitting_replacement"  # no entry of the same shape / parts / form / article
NO_GENDER_MATCH = "no_gender_compatible_replacement"  # the context's pronouns fix a gender no entry fits
QUESTION_NAMES_ENTITY = "question_names_entity"  # the question names the entity and the swap cannot be applied to it
TIED_FIGURE = "tied_figure"  # another figure depends on the amount: a conversion ("137,000 km (85,000 mi)"), shares adding up to 100%
DEFINED_SHORT_FORM = "defined_short_form"  # the entity is a short form the context spells out ("... League (NRL)")
ANSWER_NOT_SWAPPED = "answer_span_not_swapped"  # the answer span holds no replaced mention
INCOHERENT_AFTER_SWAP = "incoherent_after_swap"  # the final check found a leak, glue or doubled article
KINDLESS_ORG = "kindless_organisation"  # substitution.drop_kindless_orgs: an organisation whose name says no kind
DERIVED_WORD_LEFT = "derived_word_left"  # a word made from the entity stays ("Christianity" for "Christian"; "Madeira" for "Madeira Island")

COHERENT_REASONS = (
    AMBIGUOUS_NAME_PART, NAME_INSIDE_NAME, UNMAPPED_NAME_PART, MALFORMED_ENTITY,
    NO_FITTING_REPLACEMENT, NO_GENDER_MATCH, QUESTION_NAMES_ENTITY, ANSWER_NOT_SWAPPED,
    INCOHERENT_AFTER_SWAP, DEFINED_SHORT_FORM, TIED_FIGURE, DERIVED_WORD_LEFT, KINDLESS_ORG,
)

PAPER_REASONS = (
    ANSWER_TOO_SHORT, NO_ENTITY_MATCH, NO_REPLACEMENT, REPLACEMENT_NOT_IN_CONTEXT,
    CONTEXT_UNCHANGED, CONTEXT_TOO_SHORT, REPLACEMENT_IN_ORIGINAL, TOO_MANY_OCCURRENCES,
    REPLACEMENT_TOO_SHORT,
)
FILTER_REASONS = PAPER_REASONS + (
    NO_COMPATIBLE_REPLACEMENT, UNANSWERABLE, NO_EVIDENCE_CONTEXT, OVER_SOURCE_CAP,
) + COHERENT_REASONS

# -- rejected: malformed input --
INVALID_JSON = "invalid_json"
BAD_LAYOUT = "bad_layout"  # the file's structure is not the expected format
MISSING_FIELD = "missing_field"
WRONG_TYPE = "wrong_type"
EMPTY_FIELD = "empty_field"
NO_ANSWER = "no_answer"
BAD_ANSWER_START = "bad_answer_start"
ANSWER_NOT_IN_CONTEXT = "answer_not_in_context"
DUPLICATE_ID = "duplicate_id"
CONTEXT_TOO_LONG = "context_too_long"
MISSING_EVIDENCE_FILE = "missing_evidence_file"
BAD_ENCODING = "bad_encoding"
UNSAFE_EVIDENCE_PATH = "unsafe_evidence_path"  # an evidence Filename that leaves its directory

# -- training exports: why a record was not made (report.json's training.skipped) --
SAME_ANSWER = "same_answer"  # preferred and dispreferred answers equal after SQuAD normalisation
ABSTENTION_NO_CONTEXT = "abstention_no_context"  # no pool context free of both answers
DIALOGUE_NO_ANSWER_SPAN = "dialogue_no_answer_span"  # no start of the faithful answer
DIALOGUE_ANSWER_ACROSS_SENTENCES = "dialogue_answer_not_in_one_sentence"
DIALOGUE_SINGLE_SENTENCE = "dialogue_single_sentence"  # nothing would be left
DIALOGUE_ANSWER_REMAINS = "dialogue_answer_still_in_ablated_context"
