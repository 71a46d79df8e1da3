"""Query text: tokens, stop words, normalisation, Jaccard similarity, and safe FTS5 syntax.

User text never reaches ``MATCH`` as syntax: every term is rebuilt as a double-quoted FTS5
string made only of letters and digits, so quotes, ``*``, ``-``, ``:``, parentheses and the
words NEAR/AND/OR/NOT are plain words (or dropped), never operators.
"""

from __future__ import annotations

import functools
import re

from brv_vc.errors import BrvError
from brv_vc.index.stems import stem_of

MAX_QUERY_CHARS = 2000
# Every significant word of a question is searched (each is weighted by its idf): a pasted
# error report or a 60-90-word request loses its specific words when cut at the first 24.
# The cap only bounds the work (one lookup per term); 2,000 characters rarely reach it.
MAX_TERMS = 96
# A lone letter is searched beside a question's other words ("functions in C", "list 'x'"):
# FTS5 indexes it, its idf weighs it, and without it the Python FAQ's "... from C?" questions
# lost their one specific word (bench/eval_retrieval.py: pyfaq R@10 0.733 -> 0.744). Alone it
# is still refused (``brv search C``). Abbreviations (e.g., i.e.) are not letters.
LETTERS = 1
_ABBREVIATION = re.compile(r"\b(?:[^\W\d_]\.){2,}", re.UNICODE)
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)

# A compact English stop-word list (the words the npm `stopword` package ByteRover uses
# removes that matter for short technical questions).
_STOP_TEXT = """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    s t don shouldn ll re ve d m o y ain aren couldn didn doesn hadn hasn haven isn ma mightn
    mustn needn shan wasn weren won wouldn tell explain describe show give get please know
"""
STOPWORDS = frozenset(_STOP_TEXT.split())


class QueryError(BrvError):
    """The query text cannot be searched (empty, only stop words, short words or punctuation)."""

    code = "bad_query"


def tokens(text: str) -> list[str]:
    """Lowercased words of at least 2 characters (letters and digits; ``_`` splits words)."""
    return [t for t in _TOKEN.findall(text.lower()) if len(t) >= 2]


def normalize(text: str) -> str:
    """The exact-cache key of a query: lowercased, whitespace collapsed (byterover §5.2)."""
    return " ".join(text.lower().split())


def significant(text: str) -> list[str]:
    """Stop-word-filtered tokens, unique, in order."""
    return list(dict.fromkeys(t for t in tokens(text) if t not in STOPWORDS))


QUESTION_WORDS = frozenset("who whom whose what when where which why how".split())


def content_words(text: str) -> frozenset[str]:
    """What a question asks, for the fuzzy cache: its stemmed content words and question words.

    "When is Dana's son's graduation?" and "Who spoke at Dana's son's graduation?" differ;
    "why did we drop redis" and "Why did we drop Redis?!" do not.
    """
    words = tokens(text)
    return frozenset(
        stem(t) for t in words if t not in STOPWORDS or t in QUESTION_WORDS
    )


def query_terms(text: str, *, letters: bool = False) -> list[str]:
    """The terms to search for.

    ``letters``: with the lone letters (``LETTERS``); searches ask for them, a dream's title
    words do not.

    Raises:
        QueryError: empty text, only punctuation, only words under 2 characters, or only stop
            words (message and hint say so).
    """
    if not text.strip():
        raise QueryError(
            "the query is empty", hint='search for some words, e.g. brv search "jwt refresh"'
        )
    if len(text) > MAX_QUERY_CHARS:
        text = text[:MAX_QUERY_CHARS]
    words = tokens(text)
    if not words and _TOKEN.search(text):
        short = list(dict.fromkeys(_TOKEN.findall(text)))
        raise QueryError(
            f"the query {_show(text)} has no words to search for: words under 2 characters"
            f" are ignored ({', '.join(short[:6])})",
            hint="use a longer word, e.g. brv search \"c language\" instead of brv search C",
        )
    if not words:
        raise QueryError(
            f"the query {_show(text)} has no words to search for (only punctuation or symbols)",
            hint="use letters or digits, e.g. brv search \"token rotation\"",
        )
    terms = significant(text)
    if terms and letters and LETTERS:
        terms += [t for t in lone_letters(text) if t not in terms]
    if not terms:
        raise QueryError(
            f"the query {_show(text)} has only stop words ({', '.join(words[:6])})",
            hint="add a specific word, e.g. the name of a module, tool or concept",
        )
    return terms[:MAX_TERMS]


def lone_letters(text: str) -> list[str]:
    """The lone letters of a text that are words, not stop words nor abbreviations, unique."""
    found = _TOKEN.findall(_ABBREVIATION.sub(" ", text.lower()))
    return list(dict.fromkeys(t for t in found
                              if len(t) == 1 and t.isalpha() and t not in STOPWORDS))


def _show(text: str) -> str:
    short = text if len(text) <= 60 else text[:57] + "..."
    return repr(short)


def quote(term: str) -> str:
    """An FTS5 string literal for a term made of word characters (no operator survives)."""
    return '"' + term.replace('"', '""') + '"'


@functools.lru_cache(maxsize=65536)
def stem(term: str) -> str:
    """A crude English stem that stays a prefix of the word ("tokens" -> "token"), remembered.

    Not the index's stem (``index.stems``, Snowball's, which may end in a letter the word
    lacks: "compani"): this one finds a word inside shown text (excerpt and page highlights),
    keys the fuzzy cache, and gives the dream's word identity.
    """
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if term.endswith(suffix) and len(term) - len(suffix) >= 3:
            return term[: -len(suffix)]
    return term


PREFIX = 1.0  # also match each term as a prefix (bench/eval_retrieval.py --set terms.PREFIX=0)
# The shortest prefix searched: a term's stem ("kube" finds "kubernetes", indexed "kubernet";
# "pars" is stemmed "par" and not expanded, nor "co", which matched every path under corpus/).
MIN_PREFIX = 4
# The columns a prefix is matched in: not the path, whose folder and file names are matched
# as whole segments (a folder part_N is no hit for "par"*; "corpus" none for "co"*).
PREFIX_COLUMNS = "{title content keys}"


def prefix_of(term: str) -> str | None:
    """The prefix a term is also matched as: its stem (``stems.stem_of``), None under MIN_PREFIX."""
    if not PREFIX:
        return None
    head = stem_of(term)
    return head if len(head) >= MIN_PREFIX else None


def phrases(term: str, alternatives: list[str]) -> list[str]:
    """One query term's MATCH phrases, each scored on its own statistics (``postings``).

    The exact word's stem (every column), its prefix (title, content and keys; see
    ``prefix_of``) and fuzzy alternatives (indexed words already, as the vocabulary holds
    them). The index holds stems (``index.stems``), so each phrase is a stem. The exact word
    is listed beside its prefix on purpose: BM25 then counts an exact match twice, so "token"
    ranks documents saying "token" above those saying only "tokenizer".
    """
    head = prefix_of(term)
    prefix = [f"{PREFIX_COLUMNS} : {quote(head)}*"] if head else []
    return list(dict.fromkeys([quote(stem_of(term)), *prefix, *(quote(a) for a in alternatives)]))


def term_expr(term: str, alternatives: list[str]) -> str:
    """One query term for MATCH: the OR of its ``phrases``."""
    return "(" + " OR ".join(phrases(term, alternatives)) + ")"
