"""Readers' typos of every shape, places, and questions in English on French articles, through the
gate's word checks.

A letter doubled or made single ("suprimmer"), a word written as it sounds ("rafrechir",
"purj"), the second and third letters swapped ("calir") are the passages' word mistyped; a word
the language uses, a name, or a word that only looks alike stays what it is. An English question
on French articles lacks the articles' everyday words by its language, not by its subject: its
specific words decide, and an English question about something no article holds is still
refused. A region or a town after "en" or "vers" is the reader's when the passages hold the rest
of the question and it is close to them as written. Pure signals on passage texts, as `rag ask`
computes them.
"""

from __future__ import annotations

import pytest

from rag.answer.gate import ANSWER, LOW_COVERAGE, REFUSE, UNKNOWN_NAMES, GateParams, decide_verdict
from rag.answer.gate_words import correction_keys, signals_from
from rag.answer.language_words import edits, sound_key
from rag.answer.question_roles import places
from rag.store.terms import question_keys, question_words
from tests.answer.test_gate_typo_forms import _demo_ask, _Passage, _terms

PARAMS = GateParams(0.83, 0.6, True, "model default")



@pytest.mark.parametrize("question, typed, passage, meant", [
    ("Comment suprimmer une valeur de registre ?", "suprimmer",
     "Pour supprimer une valeur du registre sur un ordinateur distant, utilisez reg delete.", "supprimer"),
    ("comment rafrechir ses autorisations ?", "rafrechir",
     "Pour rafraîchir les tickets sans fermer la session : klist purge.", "rafraichir"),
    ("Quelle commande affiche la paserrelle par défaut ?", "paserrelle",
     "ipconfig affiche l'adresse IP, le masque et la passerelle par défaut.", "passerelle"),
    ("comment purj les tickets kerberos ?", "purj", "La commande klist purge supprime les tickets.", "purge"),
])
def test_a_word_spelled_as_it_sounds_is_the_passages_word(question, typed, passage, meant):
    term = _terms(question, passage)[typed]
    assert term.typo_of == meant and term.df == 1
    assert not term.named  # a word of the language mistyped, never a name matched exactly


def test_the_second_and_third_letters_swapped_is_a_typo():
    term = _terms("Quel commutateur affiche le mot de passe en calir ?",
                  "Get-LapsADPassword -AsPlainText affiche le mot de passe en clair.")["calir"]
    assert term.typo_of == "clair" and term.df == 1
    # Any other change of a word's first two letters is still no typo: a name differs there.
    assert "clair" in edits("calir") and "notables" not in edits("nftables")


@pytest.mark.parametrize("question, typed, passage", [
    # Sounds alike but another first letter: "filtre" is no "philtre".
    ("comment appliquer un philtre ?", "philtre", "Appliquez un filtre de capture Wireshark."),
    # A name written as one, four letters long: looked up as written, never read as a word.
    ("Comment installer Purj sur le serveur ?", "Purj", "La commande klist purge supprime les tickets."),
    # Two sounds apart: not the same word spoken.
    ("comment restaurer un utilisateur ?", "restaurer", "Le réseau restaure le corbeau."),
])
def test_what_only_looks_or_sounds_alike_stays_unknown(question, typed, passage):
    assert _terms(question, passage)[typed].typo_of is None


def test_a_sound_key_makes_one_the_spellings_of_one_sound():
    assert sound_key("suprimmer") == sound_key("supprimer")
    assert sound_key("recuperassion") == sound_key("recuperation")
    assert sound_key("purj") == sound_key("purge")
    assert sound_key("reseau") != sound_key("restaurer")


def _signals(question: str, absent: set[str], passage_text: str, score: float = 0.836):
    """The signals of `question` on a collection whose chunks hold every word but `absent`."""
    df: dict[str, int] = {}
    for w in question_words(question):
        for key in (*w.parts, *w.forms, *([w.exact] if w.exact else []), *([w.whole] if w.whole else [])):
            df[key] = 0 if w.text in absent else 300  # the articles' own words are frequent in them
    return signals_from(question, [_Passage(passage_text, score)], df, 3000, exact=True)


FRENCH_PASSAGE = ("netstat affiche les connexions TCP actives et les ports sur lesquels l'ordinateur "
                  "écoute, ainsi que les statistiques Ethernet et la table de routage IP.")


def test_an_english_question_on_french_articles_is_judged_on_its_specific_words():
    signals = _signals("Which Windows command shows the TCP connections and listening ports?",
                       {"shows", "listening"}, FRENCH_PASSAGE)
    assert signals.other_language and signals.ordinary_words == ["shows", "listening"]
    assert decide_verdict(signals, PARAMS) == (ANSWER, None)


def test_everyday_words_missing_in_the_articles_own_language_still_count():
    # The same share of words missing, in French on French articles: what the articles lack.
    signals = _signals("Quelle commande Windows montre vraiment les connexions TCP et les ports ?",
                       {"montre", "vraiment"}, FRENCH_PASSAGE)
    assert signals.ordinary_words == ["montre", "vraiment"]
    assert not signals.other_language
    assert decide_verdict(signals, PARAMS) == (REFUSE, LOW_COVERAGE)


def test_an_english_question_about_what_no_article_holds_is_still_refused():
    signals = _signals("What is the best way to train for a half marathon?",
                       {"best", "way", "train", "half", "marathon"}, FRENCH_PASSAGE)
    assert signals.other_language
    assert decide_verdict(signals, PARAMS)[0] == REFUSE


@pytest.mark.parametrize("question, place", [
    ("Faut-il une analyse d'impact lorsqu'on est médecin généraliste en Auvergne ?", {"Auvergne"}),
    ("Que contient le fichier PNR quand je vole avec Air France vers Montréal ?", {"Montréal"}),
    ("En Bretagne, les horloges de nos serveurs ont dérivé : comment mesurer l'écart ?", {"Bretagne"}),
    ("Comment trier une liste en Python ?", set()),
    ("Comment déployer une machine virtuelle en Azure ?", set()),
    ("Comment écrire ce script en PowerShell ?", set()),
    ("Comment migrer les boîtes aux lettres vers Exchange Online ?", set()),
    ("Ma fille est en CE2, l'école peut-elle publier sa photo ?", set()),
    # What the reader compares their case with: a French company, not a product English names.
    ("Comment consulter le RNIPP quand on est assureur comme la MAIF à Niort ?", {"MAIF"}),
    ("Faut-il un fournisseur d'identité comme Okta pour le SSO ?", set()),
])
def test_a_place_is_a_name_french_writes_more_than_english_after_en_or_vers(question, place):
    assert places(question) == place


AUVERGNE = "Faut-il faire une analyse d'impact lorsqu'on est médecin généraliste ?"
IMPACT_PASSAGE = ("Un médecin généraliste exerçant à titre individuel n'a pas à faire une analyse d'impact : "
                  "faut-il la faire lorsqu'on est un hôpital ? Oui.")


def test_a_place_is_set_aside_when_the_passages_hold_the_rest_of_the_question():
    question = AUVERGNE.replace(" ?", " en Auvergne ?")
    signals = _signals(question, {"Auvergne"}, IMPACT_PASSAGE, score=0.866)
    assert signals.places == ["Auvergne"] and "Auvergne" in signals.context_words
    assert signals.unknown_subject == []
    assert decide_verdict(signals, PARAMS) == (ANSWER, None)


def test_a_place_stays_the_subject_when_the_passages_hold_little_else():
    question = "Peut-on ouvrir une pharmacie de garde le soir en Bretagne ?"
    signals = _signals(question, {"Bretagne", "pharmacie", "garde"}, IMPACT_PASSAGE, score=0.866)
    assert signals.places == [] and "Bretagne" in signals.unknown_subject
    assert decide_verdict(signals, PARAMS)[0] == REFUSE


def test_a_place_set_aside_does_not_lift_a_question_under_the_floor():
    # Its details set aside, an everyday question can reach the floor; as written it did not.
    question = AUVERGNE.replace(" ?", " en Auvergne ?")
    signals = _signals(question, {"Auvergne"}, IMPACT_PASSAGE, score=0.817)
    signals.cosine_core = 0.849
    assert signals.places == ["Auvergne"]
    assert decide_verdict(signals, PARAMS) == (REFUSE, UNKNOWN_NAMES)


def _collection_signals(question: str, held: dict[str, int], passage_text: str, score: float = 0.88):
    """The signals of `question` where the collection holds the words of `held` (by their keys, the
    corrections the gate counts included) and nothing else."""
    words = question_words(question)
    df = {k: 0 for k in question_keys(words)}
    for text, count in held.items():
        for k in question_keys(question_words(text)):
            df[k] = count
    assert set(correction_keys(words)) <= set(df) or not held
    return signals_from(question, [_Passage(passage_text, score)], df, 800, exact=True)


DPO_PASSAGE = "Le DPO n'est pas personnellement responsable : c'est le responsable de traitement qui l'est."


def test_a_typo_of_a_word_the_collection_holds_is_that_word():
    # The retrieved passages do not write "sanctionné"; other articles of the collection do.
    signals = _collection_signals("Un DPO peut-il être sanctoinné ?", {"DPO": 12, "sanctionné": 4}, DPO_PASSAGE)
    term = {t.word: t for t in signals.terms}["sanctoinné"]
    assert term.df == 4 and not term.named and signals.unknown_names == []
    assert decide_verdict(signals, PARAMS)[0] != REFUSE


def test_the_gate_counts_the_words_a_typo_may_mean():
    words = question_words("Un DPO peut-il être sanctoinné ?")
    assert "sanctionne" in correction_keys(words)
    # A name, as typed, is never corrected.
    assert correction_keys(question_words("Comment installer Sanctoinné ?")) == []


def test_a_typo_is_no_reason_to_answer_what_the_passages_say_little_of():
    question = "quel est le meilleur forfait mobil pour un etudaint ?"
    signals = _collection_signals(question, {"meilleur": 30, "mobil": 0, "étudiant": 3}, DPO_PASSAGE, 0.843)
    assert "etudaint" in signals.unknown_names
    assert decide_verdict(signals, PARAMS)[0] == REFUSE


def test_a_string_longer_than_any_word_is_no_typo_and_costs_no_edits():
    # A pasted blob of letters: its edits would grow as its square; no word is that long.
    blob = "abcdefghij" * 400
    assert edits(blob) == set() and edits("sanctoinne")
    signals = _collection_signals(f"Comment {blob} ?", {}, DPO_PASSAGE)
    assert all(t.typo_of is None for t in signals.terms)


@pytest.mark.parametrize("question, expect", [
    ("What does the Kerberos error KRB_AP_ERR_MODIFIED mean?", {"other_language": True}),
    ("Quelle commande purj les tickets Kerberos ?", {"typo": ("purj", "purge")}),
    ("En Bretagne, les horloges de nos serveurs ont dérivé et l'authentification échoue : comment mesurer "
     "l'écart avec un contrôleur de domaine ?", {"places": ["Bretagne"]}),
])
def test_readers_variants_are_answered_on_the_demo(demo_index, question, expect):
    result = _demo_ask(demo_index, question)
    assert not result.refused, result.refusal_reason
    signals = result.gate["signals"]
    if "other_language" in expect:
        assert signals["other_language"] and result.gate["verdict"] == ANSWER
    if "typo" in expect:
        typed, meant = expect["typo"]
        assert {t["word"]: t["typo_of"] for t in signals["terms"]}[typed] == meant
    if "places" in expect:
        assert signals["places"] == expect["places"]


def test_an_off_topic_question_in_english_is_still_refused_on_the_demo(demo_index):
    result = _demo_ask(demo_index, "What is the best time of year to visit Lisbon?")
    assert result.refused


def test_a_word_no_article_holds_does_not_keep_a_place_the_subject():
    # "sécu" is in no chunk at all: the passages cannot hold it, and the rest they hold decides.
    question = "Dans notre mairie en Normandie, peut-on avoir accès au numéro de sécu d'un enfant ?"
    passage = "Une mairie peut-elle avoir accès au numéro d'un enfant inscrit à l'école ? Non."
    signals = _signals(question, {"Normandie", "sécu"}, passage, score=0.885)
    assert signals.places == ["Normandie"] and "Normandie" not in signals.unknown_subject
