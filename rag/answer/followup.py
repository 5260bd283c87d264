"""Follow-up questions: a question that leans on the conversation ("Et pour un compte de service ?")
is made standalone before the gate and the retrieval see it.

- `is_follow_up(question)`: does it lean on what came before? A connector first ("et", "and",
  "what about"), a pronoun with nothing to refer to ("ça", "sa valeur", "le modifier", "it"), or
  too few words of its own. A question that stands alone is searched as asked (no model call).
- With a chat model, `rewrite()`: one short, non-streamed call with its own prompt
  (`prompts/rewrite_{fr,en}.txt`), a timeout of its own, at most MAX_TURNS earlier turns each cut
  to MAX_TURN_CHARS, at most REWRITE_MAX_TOKENS back, and an answer kept only when it reads as one
  question of at most MAX_QUESTION_CHARS.
- Without one, or when that call fails, `with_terms()`: the previous question's subject terms (the
  rarest of its own terms that the articles hold, by their inverse document frequency: never a
  colleague's name nor an everyday word of the articles) are appended to the follow-up, for
  retrieval and the gate; the reader is told which (benchmarks/README.md, "Follow-up questions",
  measures both ways).

`understand()` chooses among the three and says which way was taken.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from rag.answer.prompts import detect_language, load_prompt, one_line
from rag.errors import LLMError
from rag.i18n import language as in_language, t
from rag.store.sparse import STOP_WORDS
from rag.textnorm import fold

MAX_TURNS = 2  # earlier turns given to the rewrite: the last ones carry the reference
MAX_TURN_CHARS = 600  # of each earlier question and answer in the rewrite's prompt
MAX_QUESTION_CHARS = 400  # a longer "question" back from the model is not a rewrite
MAX_TERMS = 8  # terms of the previous question appended without a model
REWRITE_TIMEOUT = 20.0  # seconds: the rewrite is a short answer; waiting longer delays the real one
REWRITE_MAX_TOKENS = 120
SHORT_WORDS = 3  # a question of this many words or fewer leans on the conversation
VAGUE_TERMS = 2  # a question naming this little of its own (_specificity) leans on it too
LEAN_TERMS = 4  # above this, a pronoun in the question refers to something the question names

AS_ASKED, MODEL, TERMS = "as_asked", "model", "terms"

Holds = Callable[[Sequence[str]], bool]  # do the articles hold any of these terms?

_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
# A term: letter/digit runs joined by - _ . : / \ @ (msDS-SupportedEncryptionTypes, 0x80090308).
_TERM = re.compile(r"(?:(?<![\w-])-)?[^\W_]+(?:[-_.:/\\@]+[^\W_]+)*")  # with a command's option (-X)

# "passe-t-il", "stocke-t-elle", "peut-on": the verb, without its inverted subject.
_INVERTED = re.compile(r"(?:-t)?-(?:il|elle|ils|elles|on|je|tu|nous|vous)$", re.IGNORECASE)

_CONNECTORS = {
    "et", "mais", "puis", "ensuite", "alors", "aussi", "sinon", "ou", "and", "but", "also", "then", "or",
}
_LEADS = ("what about", "how about", "and what", "et si", "et pour", "et avec", "et sans", "et dans", "et côté",
          "et sur", "et quand", "et comment", "et pourquoi", "et après", "et ensuite")
# Words that refer back to something said before.
_ANAPHORS = {
    "ça", "ca", "cela", "ceci", "celui", "celle", "ceux", "celles", "celui-ci", "celle-ci", "ceux-ci", "celles-ci",
    "celui-là", "celle-là", "dernier", "dernière", "sa", "son", "ses", "leur", "leurs", "y", "lui",
    "il", "elle", "ils", "elles",
    "it", "its", "them", "they", "their", "that", "this", "those", "these", "one", "ones", "there",
}
_SUBJECTS = {"je", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles"}
_OBJECTS = {"le", "la", "les", "l", "en"}
# "le modifier", "l'installer", "en demander": an object pronoun before an infinitive.
_INFINITIVE = re.compile(r"(?:er|ir|oir)$")
# An identifier or a name: a digit, an inner capital, or joined parts (0x80090308, MaxTokenSize, klist -li).
_IDENTIFIER = re.compile(r"\d|[a-z][A-Z]|^[A-Z]{2,}|[-_.:/\\@]")
# Question words: common to every question, so no clue to its subject.
_COMMON = set("""
comment quel quelle quels quelles quoi pourquoi combien quand où faut faire peut veut dire signifie
correspond sert servir est-ce qu'est-ce existe utiliser afficher trouver mettre changer régler donne
donner chose exactement ensuite après avant aussi même autre autres ici
how what which why when where who does do did mean means use used show find set get make
""".split())


@dataclass(frozen=True)
class Turn:
    """An earlier turn, as the rewrite needs it: the question it was searched with, its answer."""

    question: str
    answer: str = ""


@dataclass
class Understood:
    """What the gate and the retrieval see for a question asked in a conversation."""

    asked: str
    standalone: str
    method: str = AS_ASKED  # AS_ASKED, MODEL or TERMS
    terms: list[str] = field(default_factory=list)  # appended (TERMS)
    error: str | None = None  # why the model's rewrite was not used, when it was tried

    @property
    def rewritten(self) -> bool:
        return self.method != AS_ASKED and self.standalone != self.asked

    def to_dict(self) -> dict[str, Any]:
        return {"asked": self.asked, "standalone": self.standalone, "method": self.method,
                "terms": list(self.terms), "error": self.error}


def _words(text: str) -> list[str]:
    """Lower-case words; an elided article or pronoun ("l'installer") is its own word."""
    out: list[str] = []
    for word in _WORD.findall(unicodedata.normalize("NFKC", text).replace("’", "'").lower()):
        head, sep, rest = word.partition("'")
        if sep and len(head) <= 3 and rest:
            out.extend((head, rest))
        else:
            out.append(word)
    return out


def own_terms(question: str) -> list[str]:
    """The question's terms that say what it is about, as written, first occurrence first:
    identifiers and names, and the words that are neither common nor question words."""
    seen: set[str] = set()
    out: list[str] = []
    for match in _TERM.finditer(question):
        term = match.group(0)
        key = fold(term)
        head, sep, rest = key.partition("'")
        if sep and len(head) <= 3:  # "l'erreur" -> "erreur"
            key, term = rest, term[len(head) + 1:]
        key = _INVERTED.sub("", key)
        term = _INVERTED.sub("", term)
        if key in seen or key in STOP_WORDS or key in _COMMON or (len(key) < 3 and not key.isdigit() and not key.startswith("-")):
            continue
        seen.add(key)
        out.append(term)
    return out


def _specificity(question: str) -> int:
    """How much the question names on its own: an identifier or a name counts for three words."""
    return sum(3 if _IDENTIFIER.search(term) else 1 for term in own_terms(question))


def is_follow_up(question: str, holds: Holds | None = None) -> bool:
    """Does `question` lean on an earlier turn? A connector first; else, when it names little of
    its own (at most LEAN_TERMS), a pronoun that refers back or almost nothing named at all.

    `holds(terms)`: do the articles hold any of these terms? A short question naming only what
    they never mention changes the subject: it is a follow-up only by a connector or a pronoun,
    never for being short."""
    words = _words(question)
    if not words:
        return False
    lowered = " ".join(words)
    if words[0] in _CONNECTORS or lowered.startswith(_LEADS):
        return True
    specificity = _specificity(question)
    if len(words) <= SHORT_WORDS or specificity <= VAGUE_TERMS:
        terms = own_terms(question)
        if holds is None or not terms or holds(terms):
            return True
    elif specificity > LEAN_TERMS:  # a question that says this much has its referent in it
        return False
    for i, word in enumerate(words):
        if word in _ANAPHORS:
            return True
        following = words[i + 1] if i + 1 < len(words) else ""
        if word in _OBJECTS and _is_infinitive(following) and (i == 0 or words[i - 1] not in ("de", "du", "des")):
            return True  # "le modifier", "comment la diagnostiquer", "en demander un"
        if word in _SUBJECTS and following in _OBJECTS:  # "je le modifie"
            return True
    return False


def _is_infinitive(word: str) -> bool:
    return word in _VERBS_IN_RE or (_INFINITIVE.search(word) is not None and word not in _NOUNS_IN_ER)


# Infinitives in -re (a noun in -re is far more common: "la signature", "la capture").
_VERBS_IN_RE = {"lire", "faire", "dire", "prendre", "mettre", "écrire", "suivre", "reproduire", "produire",
                "traduire", "inscrire", "décrire", "connaître", "résoudre", "refaire", "construire", "reconstruire",
                "remettre", "permettre", "transmettre", "comprendre", "reprendre", "rendre", "attendre", "étendre",
                "perdre", "répondre", "relire", "réécrire", "exclure", "inclure", "conclure", "joindre", "rejoindre"}
# Nouns in -er or -ir that follow an article in these questions.
_NOUNS_IN_ER = {"fichier", "premier", "dernier", "dossier", "papier", "clavier", "quartier", "métier", "cluster",
                "header", "user", "folder", "server", "pouvoir", "devoir", "savoir", "miroir", "loisir", "plaisir",
                "avenir", "désir", "soir", "espoir", "couloir", "tiroir", "hiver", "laser", "poker", "master"}


class Rarity(Protocol):
    """How much a term says what a question is about in the articles a reader may see
    (rag.answer.gating.TermRarity); None when no article holds it."""

    def weight(self, term: str) -> float | None: ...


# The subject's terms weigh at least this share of the heaviest one's (rag.answer.gating.TermRarity:
# a log ratio of the articles' use to the language's); lighter ones are the question's setting.
SUBJECT_SHARE = 0.5


def subject_terms(question: str, rarity: Rarity | None = None) -> list[str]:
    """The terms of `question` that say what it is about, in its order. With the articles'
    statistics: those the articles hold (a colleague's name, held by none, is left out), and of
    these the ones weighing at least SUBJECT_SHARE of the heaviest (never an everyday word of the
    question). Without: its own terms."""
    terms = own_terms(question)
    if rarity is None:
        return terms
    held = {term: w for term in terms if (w := rarity.weight(term)) is not None}
    if not held:
        return []
    top = max(held.values())
    return [term for term in terms if term in held and held[term] >= SUBJECT_SHARE * top]


def with_terms(question: str, previous: Sequence[Turn], rarity: Rarity | None = None) -> Understood:
    """The fallback without a model: the previous question's subject terms (subject_terms) that
    the follow-up lacks, appended to it (at most MAX_TERMS)."""
    if not previous:
        return Understood(question, question)
    have = {fold(term) for term in own_terms(question)}
    have.update(_words(question))
    added = [term for term in subject_terms(previous[-1].question, rarity) if fold(term) not in have][:MAX_TERMS]
    if not added:
        return Understood(question, question)
    return Understood(question, f"{question.rstrip()} {' '.join(added)}", TERMS, added)


def load_rewrite_prompt(language: str) -> str:
    return load_prompt("rewrite", language)


_cut = one_line


def rewrite_messages(question: str, previous: Sequence[Turn], language: str) -> list[dict[str, str]]:
    """The rewrite's chat messages: its rules, then the last turns and the question."""
    with in_language(language if language in ("fr", "en") else "fr"):
        turns = []
        for i, turn in enumerate(previous[-MAX_TURNS:], 1):
            lines = [f'<turn n="{i}">', t("prompt.rewrite.question", text=_cut(turn.question, MAX_TURN_CHARS))]
            if turn.answer:
                lines.append(t("prompt.rewrite.answer", text=_cut(turn.answer, MAX_TURN_CHARS)))
            lines.append("</turn>")
            turns.append("\n".join(lines))
        user = (t("prompt.rewrite.conversation") + "\n\n" + "\n\n".join(turns) + "\n\n"
                + t("prompt.rewrite.last", text=_cut(question, MAX_TURN_CHARS)) + "\n\n" + t("prompt.rewrite.ask"))
    return [{"role": "system", "content": load_rewrite_prompt(language)}, {"role": "user", "content": user}]


def is_rewrite_request(messages: Sequence[dict[str, Any]]) -> bool:
    """True for the messages of rewrite_messages (what a test's chat server tells apart)."""
    system = str(messages[0].get("content") or "") if messages else ""
    return system in (load_rewrite_prompt("fr"), load_rewrite_prompt("en"))


_PREFIX = re.compile(r"^\s*(?:question(?: autonome| reformulée)?|standalone question|rewritten question)\s*:\s*",
                     re.IGNORECASE)


def clean_rewrite(text: str) -> str | None:
    """The model's rewrite as one question, or None when what came back is not one."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if not lines:
        return None
    line = _PREFIX.sub("", lines[0]).strip().strip('"«»“”').strip()
    if not line or len(line) > MAX_QUESTION_CHARS or len(lines) > 3:
        return None
    return line


def rewrite(question: str, previous: Sequence[Turn], llm: Any, language: str | None = None,
            timeout: float = REWRITE_TIMEOUT) -> str:
    """The standalone form of `question` written by the chat model. Raises LLMError when the model
    cannot be reached or answers something that is not one question."""
    language = language or detect_language(question)
    messages = rewrite_messages(question, previous, language)
    text = llm.chat(messages, max_tokens=REWRITE_MAX_TOKENS, temperature=0.0, timeout=timeout)
    cleaned = clean_rewrite(text)
    if cleaned is None:
        raise LLMError(f"the rewrite is not one question: {_cut(text, 120)!r}")
    return cleaned


def understand(question: str, previous: Sequence[Turn], llm: Any = None, language: str | None = None,
               timeout: float = REWRITE_TIMEOUT, holds: Holds | None = None,
               rarity: Rarity | None = None) -> Understood:
    """What to search for `question` asked after `previous` turns: as asked when it stands alone,
    else its standalone form (standalone()).
    `holds`: as for is_follow_up (rag.answer.gate.term_holder gives it for a collection)."""
    if not previous or not is_follow_up(question, holds):
        return Understood(question, question)
    return standalone(question, previous, llm, language, timeout, rarity)


def standalone(question: str, previous: Sequence[Turn], llm: Any = None, language: str | None = None,
               timeout: float = REWRITE_TIMEOUT, rarity: Rarity | None = None) -> Understood:
    """A follow-up made standalone: the model's rewrite, else (no model, or its call failed) the
    previous question's subject terms appended (with_terms)."""
    error: str | None = None
    if llm is not None:
        try:
            return Understood(question, rewrite(question, previous, llm, language, timeout), MODEL)
        except LLMError as exc:
            error = str(exc)
    understood = with_terms(question, previous, rarity)
    understood.error = error
    return understood
