"""Which words of a question are the reader's situation and which name a tool (pure functions)."""

from __future__ import annotations

import pytest

from rag.answer.question_roles import roles


@pytest.mark.parametrize("question, context", [
    ("Sur la Surface de Paul, quelle commande purge les tickets Kerberos ?", {"Surface", "Paul"}),
    ("Chez Airbus à Toulouse, comment purger les tickets ?", {"Airbus", "Toulouse"}),
    ("Mon collègue Karim demande quelle clé de registre règle MaxTokenSize.", {"Karim"}),
    ("Quel attribut stocke le mot de passe ? C'est pour le client Renault.", {"Renault"}),
    ("Which command shows the listening ports on John's server?", {"John"}),
    ("Sur le ThinkPad de Léa, comment demander un ticket ?", {"ThinkPad", "Léa"}),
    ("Quelle unité pour maxsize ? Je prépare une capture pour le 12 juin.", {"12", "juin"}),
    ("Comment gérer un fichier client pour ma boutique de Montpellier ?", {"boutique", "Montpellier"}),
])
def test_the_situation_around_the_question_is_context(question, context):
    found = roles(question)[0]
    assert context <= found
    # What is asked stays the subject (only the words no article holds are ever set aside).
    assert not found & {"Kerberos", "MaxTokenSize", "maxsize", "ticket", "tickets", "fichier", "attribut"}


@pytest.mark.parametrize("question", [
    "Comment mettre en place le SSO SAML entre Okta et SAP S/4HANA ?",
    "Comment chiffrer ses conversations WhatsApp sauvegardées ?",
    "Comment renouveler un certificat Let's Encrypt sur Apache ?",
    "Comment configurer OpenID Connect avec Keycloak pour une application React ?",
])
def test_the_thing_asked_about_is_not_context(question):
    assert roles(question)[0] == set()


@pytest.mark.parametrize("question, context", [
    ("À quelles informations mon médecin, le docteur Martin, peut-il accéder ?", {"docteur", "Martin"}),
    ("Maître Dupont peut-il consulter mon dossier médical ?", {"Maître", "Dupont"}),
    ("Est-ce que Mme Durand peut lire mes courriels professionnels ?", {"Mme", "Durand"}),
    ("M. Leroy a-t-il le droit de filmer ses salariés ?", {"Leroy"}),
    ("Le professeur Nguyen peut-il publier les notes des étudiants ?", {"professeur", "Nguyen"}),
    ("Can Dr. Watson read my medical record?", {"Dr", "Watson"}),
])
def test_a_name_after_a_title_or_a_role_is_a_person_of_the_situation(question, context):
    assert context <= roles(question)[0]


@pytest.mark.parametrize("question", [
    "Que prévoit la loi HIPAA sur les données de santé ?",
    "Comment supprimer un compte TikTok ?",
    "Comment configurer le client Outlook sur Windows ?",
])
def test_a_product_after_an_ordinary_noun_is_still_the_subject(question):
    assert roles(question)[0] == set()


def test_a_lower_case_word_after_avec_or_before_an_option_is_a_tool():
    assert roles("Comment lister les conteneurs arrêtés avec podman ?")[1] == {"podman"}
    assert roles("Comment afficher les journaux d'un service avec journalctl -u ?")[1] == {"journalctl"}
    assert roles("Comment lister les paquets installés avec dpkg -l ?")[1] == {"dpkg"}
