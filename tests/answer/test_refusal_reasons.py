"""What a refusal names (rag.answer.refusal, from rag.answer.gate's signals): the rare words no
article the reader may see holds, never an everyday word nor a word an article holds; with none,
the passages' closeness against the floor."""

from __future__ import annotations

from rag.answer import refusal
from rag.answer.gate import Decision, GateParams
from rag.answer.gate_signals import signals_from


class _P:
    def __init__(self, score: float, text: str) -> None:
        self.score, self.text = score, text


PASSAGE = _P(0.772, "Pour chiffrer LDAP, installez un certificat serveur sur le contrôleur de domaine.")
# Document frequencies of the question's keys among 40 visible chunks: what the collection holds.
DF = {"certif": 12, "certificat": 9, "serveur": 20, "config": 4, "configurer": 3}


def _refusal(question: str) -> dict:
    signals = signals_from(question, [PASSAGE], DF, 40, exact=True)
    return refusal.from_decision(Decision(False, "low_cosine", signals, GateParams(0.834)))


def test_the_refusal_names_the_rare_word_no_article_holds_not_the_everyday_ones():
    said = _refusal("Quelle est la recette de la pâte à crêpes avec Thermomix ?")
    assert said["kind"] == "words" and "Thermomix" in said["words"]
    assert not {"recette", "pâte", "est"} & set(said["words"])
    assert refusal.text(said, "en").startswith("no article mentions: Thermomix")


def test_a_word_an_article_holds_is_never_named():
    said = _refusal("Comment configurer le certificat serveur de Keycloak ?")
    assert said == {"kind": "words", "words": ["Keycloak"]}


def test_with_only_everyday_words_missing_the_refusal_gives_the_distance():
    said = _refusal("Quel temps fera-t-il demain ?")
    assert said == {"kind": "score", "best": 0.772, "threshold": 0.834}
    assert refusal.text(said, "fr") == (
        "aucun passage n'est assez proche de la question (meilleur score 0,772 < seuil 0,834)")


def test_a_close_passage_is_never_said_to_be_under_the_threshold():
    """A doubt or refusal with the best passage at or above the floor (its words not compared, or
    not standing out) said "best score 0.865 < threshold 0.830": a comparison that is false."""
    english = _P(0.865, "To add a thermal relief, set the zone's pad connection in the copper zone dialog.")
    signals = signals_from("Comment éviter que la zone colle aux pastilles ?", [english], {"zone": 3}, 40)
    assert signals.other_language and signals.subject_words and not signals.named
    said = refusal.from_decision(Decision(True, "low_coverage", signals, GateParams(0.830), verdict="unsure"))
    assert said == {"kind": "score", "best": 0.865, "threshold": 0.83}
    assert refusal.text(said, "fr") == (
        "les passages trouvés ne répondent pas clairement à la question (meilleur score 0,865, seuil 0,830)")
    assert "<" not in refusal.text(said, "en")


def test_a_few_keywords_are_in_no_language_and_keep_their_words_compared():
    english = _P(0.85, "Gerber files are written from the Plot dialog, with the drill files.")
    keywords = signals_from("Gerber drill Okta", [english], {"gerber": 4, "drill": 2}, 40)
    assert not keywords.other_language and keywords.named == ["Okta"]
