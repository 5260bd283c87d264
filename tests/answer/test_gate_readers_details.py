"""The details readers add to a privacy question, through the gate's word checks.

A company with its legal form before its name, "notre SAS", "la société X", a child's class, a
second example after "ou": set aside when no chunk holds them, so the question is judged on what
it asks. A word some chunk holds is never set aside, whatever its role: the collection decides.
"""

from __future__ import annotations

from rag.answer.gate import REFUSE, UNKNOWN_NAMES, GateParams, decide_verdict
from rag.answer.gate_words import signals_from
from rag.store.terms import question_words

PARAMS = GateParams(0.83, 0.6, True, "model default")


class _P:
    score = 0.88
    text = ""
    id = ""


def _signals(question: str, absent: set[str], n: int = 500):
    """The signals of `question` on a collection whose chunks hold every word but `absent`."""
    df: dict[str, int] = {}
    for w in question_words(question):
        for key in (*w.parts, *w.forms, *([w.exact] if w.exact else []), *([w.whole] if w.whole else [])):
            df[key] = 0 if w.text in absent else 7
    return signals_from(question, [_P()], df, n, exact=True)


def test_a_legal_form_before_the_name_is_set_aside_and_ordinary_words_are_no_names():
    question = "La SARL Transports Dupont veut mettre un GPS dans les camionnettes de ses livreurs, c'est permis ?"
    signals = _signals(question, {"SARL", "Dupont", "camionnettes", "livreurs"})
    assert {"SARL", "Dupont"} <= set(signals.context_words)
    assert signals.unknown_subject == []
    # Words of the language the collection lacks weigh in the share of words, never as names.
    assert not {"camionnettes", "livreurs"} & set(signals.unknown_names)


def test_our_sas_is_the_readers_company_and_disks_sas_are_the_subject():
    ours = _signals("Pour la BDES de notre SAS de 60 salariés, faut-il faire une démarche RGPD ?", {"SAS"})
    assert ours.context_words == ["SAS"] and ours.unknown_subject == []
    disks = _signals("Comment configurer des disques SAS en RAID 5 ?", {"SAS"})
    assert disks.unknown_subject == ["SAS"]
    assert decide_verdict(disks, PARAMS) == (REFUSE, UNKNOWN_NAMES)


def test_a_name_the_collection_holds_is_never_set_aside():
    question = "La société Générale peut-elle garder la copie de ma pièce d'identité ?"
    held = _signals(question, set())
    assert "Générale" not in held.context_words and "Générale" not in held.missing
    absent = _signals(question, {"Générale"})
    assert absent.context_words == ["Générale"]


def test_a_town_the_collection_holds_counts_as_held():
    question = "Au dépôt de la société Logistar à Angers, qui a le droit de regarder les enregistrements des caméras ?"
    both = _signals(question, {"Logistar", "Angers"})
    assert set(both.context_words) == {"Logistar", "Angers"} and both.unknown_subject == []
    town_held = _signals(question, {"Logistar"})
    assert town_held.context_words == ["Logistar"] and "Angers" not in town_held.missing


def test_a_childs_class_and_a_second_example_are_set_aside():
    grade = _signals("Ma fille Léa est en CE2, je peux voir ce que l'école a saisi sur elle dans Base Élèves ?",
                     {"fille", "Léa", "CE2"})
    assert set(grade.context_words) == {"fille", "Léa", "CE2"} and grade.unknown_subject == []
    example = _signals("Quelles précautions prendre pour protéger ma vie perso quand je poste sur Facebook ou Instagram ?",
                       {"perso", "Instagram"})
    assert "Instagram" in example.context_words and example.unknown_subject == []
    # The first of the two is the subject: an article must name it.
    first = _signals("Faut-il choisir Okta ou Azure AD pour le SSO ?", {"Okta", "Azure", "AD"})
    assert "Okta" in first.unknown_subject
