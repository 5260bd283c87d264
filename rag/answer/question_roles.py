"""What a question's words do: the thing asked about, or a detail of the reader's situation.

Readers write "Sur la Surface de Paul, quelle commande purge les tickets Kerberos ?" or "Chez
Airbus à Toulouse, comment …": Paul, Airbus and Toulouse say where the question comes from, not
what it asks, and a blog that never names them still answers it. "Comment mettre en place le SSO
entre Okta et SAP S/4HANA ?" asks about Okta and S/4HANA themselves. French and English mark the
difference with the words around a name, so the gate reads them (pure functions, linear scans):

- context: a name after a preposition of place, owner or beneficiary ("chez Airbus", "le serveur
  de Gérard", "à Toulouse", "pour Veolia", "John's server"), with the noun it qualifies ("la
  pizzeria de Luigi"); after a possessive and a noun ("mon collègue Karim", "notre client
  Total"), or after where someone is and the noun of their role ("chez le client Airbus", "at the
  customer Airbus"); a name followed by its owner ("le ThinkPad de Léa", "la Surface de la directrice"); in a sentence of the question
  that asks nothing ("C'est pour le client Renault."); the noun after a first or second person
  possessive ("mon patron", "ma boutique"); and dates (days, months, the numbers beside them);
- context too: a name after a title or a person's role, with the title ("le docteur Martin",
  "Maître Dupont", "Mme Durand", "M. Leroy", "le professeur Nguyen", "notre avocate Maître Roux"):
  a person of the reader's story, never a product ("la loi HIPAA" is not a title);
- context too: a company's name closed or opened by its legal form ("le client Durand SA", "Acme
  GmbH", "la SARL Transports Dupont"), a legal form after a first or second person possessive
  ("notre SAS", "ma SCI"), a name after a noun of an organisation ("la société Logistar",
  "l'entreprise Isolation Plus", "le cabinet Moreau", "l'association Les Amis"), and a host's name
  after a machine's noun ("le serveur SRV-LYON-02", "la VM web-prod-3");
- context too: a school grade after "en" ("ma fille est en CE2", "en terminale");
- context too: the second of two names joined by "ou" ("quand je poste sur Facebook ou
  Instagram"): another example of what the first names, set aside only when no chunk holds it,
  while the first stays the subject ("Okta ou Azure AD" is refused by Okta when no article
  names it);
- context too: the names in an apposition to a first or second person possessive and its noun
  ("Notre établissement, la Caisse d'épargne Bretagne, doit-il …", "Ma banque, le Crédit
  Agricole, …");
- context too: the subject of a relative or time clause ("la commande que Marc veut lancer",
  "que m'a envoyée Thomas", "quand Bruno le lance"), not after "est-ce que";
- places (`places`, apart): a region, a country or a town after "en" or "vers" ("médecin en
  Auvergne", "vers Montréal"), or a French company the reader compares with ("comme la MAIF"),
  which the gate sets aside only when the passages hold the rest;
- tools: a lower-case word after "avec", "with", "via", "using" ("avec podman"), or followed by a
  command-line option ("journalctl -u"), is a program's name, looked up like any other name.

Everything else keeps the role the word list gives it (rag.store.terms.question_words).
"""

from __future__ import annotations

import re
import unicodedata

from rag.answer.language_words import common, more_french

# Place, owner, beneficiary: what follows describes the situation.
_CONTEXT_BEFORE = frozenset("chez de d du des à a au aux pour selon at of for from".split())
# First and second person only: "ses conversations WhatsApp" is what is asked about.
_POSSESSIVES = frozenset("mon ma mes notre nos votre vos my our your".split())
# A relative or time clause ("la commande que Marc veut lancer", "quand Bruno le lance"): the name
# after it is someone acting in the reader's story; not after "est-ce" or a verb of knowing
# ("est-ce que Okta …", "savoir quand Okta …"), where it is what is asked about.
_CLAUSE = frozenset("que qu quand lorsque lorsqu".split())
_NOT_RELATIVE = frozenset("est-ce ce savoir dire vérifier verifier sûr sur".split())
# Where a person or a company is, before the noun of their role: the name after "chez le client",
# "at the customer", "auprès du fournisseur" is the reader's customer, never a product ("le client
# Okta" alone may name Okta's client software).
_AT_SOMEONE = frozenset("chez at auprès aupres".split())
_ARTICLES = frozenset("le la les l un une the".split())
# Titles and roles of a person: the capitalised word after one is that person's name. A closed
# class of the language (a role that also names software, "client", "serveur", is not in it).
_TITLES = frozenset("""
docteur docteure doctoresse dr professeur professeure prof maître maitre madame mme mmes mesdames
monsieur m mm messieurs mademoiselle mlle collègue collègues collegue confrère consœur consoeur
patron patronne directeur directrice avocat avocate notaire juge voisin voisine
mr mrs ms miss sir doctor professor colleague boss
""".split())
# A company's legal form closes its name ("Durand SA", "Transports Martin SARL", "Acme GmbH"): the
# reader's customer or employer, not a product. Case as written: "SA" is a form, "sa" a word.
_LEGAL_FORMS = frozenset("""
SA SAS SASU SARL EURL SCI SCOP SCA SNC SEM GIE EI EIRL GmbH AG KG OHG Inc Inc. Ltd Ltd. LLC LLP PLC
plc BV NV SpA Srl SRL Oy AB ASA Sàrl
""".split())
# In French the form may open the name ("la SARL Transports Dupont", "la SAS Boulangerie Martin"):
# the French forms only, English and German ones close it.
_LEADING_FORMS = frozenset("SA SAS SASU SARL EURL SCI SCOP SCM SNC SEM GIE EIRL SELARL SELAS".split())
# Nouns of an organisation: the capitalised name right after one is the reader's company, school
# or association ("la société Logistar", "l'école Jules-Ferry"). A closed class; nouns that also
# name software or a rule ("le logiciel", "l'application", "la loi", "le service", "l'opérateur")
# are not in it: "l'application TikTok" is what is asked about.
_ORGANISATIONS = frozenset("""
société sociétés entreprise entreprises cabinet association asso groupe banque mutuelle clinique
hôpital hopital école ecole collège college lycée lycee université universite établissement
etablissement compagnie firme enseigne agence magasin boutique club start-up startup pme tpe
company firm
""".split())
# School grades: a child's class, after "en" ("ma fille est en CE2").
_GRADES = frozenset("""
cp ce1 ce2 cm1 cm2 6e 5e 4e 3e 6ème 5ème 4ème 3ème 6eme 5eme 4eme 3eme 2nde 1re 1ère seconde
terminale maternelle
""".split())
# A machine's noun: the name after it, when it looks like a host's name, is the reader's machine.
_MACHINES = frozenset("""
serveur serveurs server servers hôte hote hôtes host hosts poste postes machine machines vm vms pc
ordinateur portable laptop contrôleur controleur dc nœud noeud node station cluster domaine domain
""".split())
# Where a reader's machine stands, when no noun names it ("Sur SRV-BDX-07, …", "depuis WKS042",
# "entre PC117 et FS-LYON-02"): the upper-case host's name after one is that machine.
_MACHINE_PLACES = frozenset("sur depuis entre on from between".split())
# Abbreviated titles take a full stop that does not end the sentence ("M. Leroy", "Dr. Watson").
_ABBREVIATED = frozenset("m mm mme mmes mlle dr pr me mr mrs ms prof".split())
_DETERMINERS = _ARTICLES | _POSSESSIVES
# The instrument of the action: what follows is the tool asked about.
_TOOL_BEFORE = frozenset("avec with via using".split())
_DATES = frozenset("""
lundi mardi mercredi jeudi vendredi samedi dimanche janvier février fevrier mars avril mai juin
juillet août aout septembre octobre novembre décembre decembre hier demain matin soir
monday tuesday wednesday thursday friday saturday sunday january february march april may june
july august september october november december yesterday tomorrow
""".split())
# A token: a word or identifier as rag.store.sparse cuts them, or an elided article ("d'"); the
# marks that end a sentence, and commas (which _tokens keeps apart from the tokens).
_TOKEN = re.compile(r"[^\W_]+(?:[-_.:/\\@]+[^\W_]+)*'?|[.!?;,:]")
_OPTION = re.compile(r"(?:-{1,2}|/)[A-Za-z]")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'"})


def _capitalised(token: str) -> bool:
    return token[:1].isupper()


def _tokens(question: str) -> tuple[list[str], set[int]]:
    """The tokens, and the indices of the tokens a comma stands right before (commas are not
    tokens: the rules read the words either side of them as neighbours)."""
    text = unicodedata.normalize("NFKC", question or "").translate(_APOSTROPHES)
    raw = _TOKEN.findall(text)
    tokens: list[str] = []
    commas: set[int] = set()
    for k, t in enumerate(raw):
        if t in ",:":  # a colon parts words as a comma does ("chez Gmail : SPF ou DKIM")
            commas.add(len(tokens))
            continue
        prev = raw[k - 1] if k > 0 else ""
        nxt = raw[k + 1] if k + 1 < len(raw) else ""
        if t == "." and prev.lower() in _ABBREVIATED and nxt and _capitalised(nxt):
            continue
        tokens.append(t)
    return tokens, commas


def _sentences(tokens: list[str]) -> list[tuple[int, int, bool]]:
    """(start, end, asks) of each sentence: asks when it ends with "?" (or is the only one)."""
    spans: list[tuple[int, int, bool]] = []
    start = 0
    for i, tok in enumerate(tokens):
        if tok in ".!?;":
            spans.append((start, i, tok == "?"))
            start = i + 1
    if start < len(tokens):
        spans.append((start, len(tokens), False))
    if not any(asks for _, _, asks in spans):
        return [(0, len(tokens), True)]
    return spans


def _bare(token: str) -> str:
    return token.rstrip("'").lower()


def roles(question: str) -> tuple[set[str], set[str]]:
    """(context, tools): the words, as typed, that describe the situation, and the lower-case
    words that name a tool. A run of capitalised words ("Leroy Merlin") shares one role."""
    tokens, commas = _tokens(question)
    context: set[str] = set()
    tools: set[str] = set()
    for start, end, asks in _sentences(tokens):
        context.update(_apposition(tokens, commas, start, end))
        i = start
        while i < end:
            tok = tokens[i]
            word = tok.rstrip("'")
            if tok in ".!?;":
                i += 1
                continue
            if word.lower() in _DATES:
                context.add(word)
                for j in (i - 1, i + 1):  # "le 12 juin", "juin 2026"
                    if start <= j < end and tokens[j].isdigit():
                        context.add(tokens[j])
                i += 1
                continue
            first = i == start or (i == start + 1 and tokens[start].endswith("'"))
            # A capital opens every sentence; in a sentence that asks nothing, it may be a name.
            if _capitalised(word) and (not first or not asks):
                j = i
                # A run of capitalised words does not cross a comma or a colon.
                while j + 1 < end and _capitalised(tokens[j + 1]) and tokens[j + 1] not in ".!?;" \
                        and j + 1 not in commas:
                    j += 1
                run = [t.rstrip("'") for t in tokens[i:j + 1]]
                titled = _titled(tokens, start, i, j)
                if (not asks or titled or _in_context(tokens, start, i, j, commas) or _owned(tokens, j, end)
                        or _company(run) or _machine(tokens, start, i, j) or _organisation(tokens, start, i, commas)
                        or _grade(tokens, start, i, j) or _own_form(tokens, start, i, j) or _alternative(tokens, start, i)):
                    context.update(run)
                    if titled and i > start and _bare(tokens[i - 1]) in _TITLES:
                        context.add(tokens[i - 1].rstrip("'"))  # "docteur": the title goes with the name
                    # "la pizzeria de Luigi", "l'agence de Lille": the noun the name qualifies too.
                    if i - 2 >= start and _bare(tokens[i - 1]) in ("de", "d", "du") and tokens[i - 2].isalpha() \
                            and tokens[i - 2].islower():
                        context.add(tokens[i - 2])
                i = j + 1
                continue
            if i > start and _bare(tokens[i - 1]) in _POSSESSIVES and word.islower() and word.isalpha():
                context.add(word)  # "mon patron", "ma boutique": the reader's own situation
            elif _machine(tokens, start, i, i):
                context.add(word)  # "la VM web-prod-3"
            elif i > start and _bare(tokens[i - 1]) == "en" and word.lower() in _GRADES:
                context.add(word)  # "mon fils est en terminale"
            elif i > start and _bare(tokens[i - 1]) in _TOOL_BEFORE and word.islower() and len(word) > 2:
                tools.add(word)
            elif word.islower() and i + 1 < end and _OPTION.match(tokens[i + 1]) and len(word) > 2:
                tools.add(word)
            i += 1
    return context, tools


def _owned(tokens: list[str], j: int, end: int) -> bool:
    """A name followed by its owner's ("le ThinkPad de Léa", "le portable Dell d'Amélie"): the
    reader's device, not the subject. With a person's noun as owner ("la Surface de la
    directrice"), only a name of the language: "Okta de l'entreprise" names a product."""
    if not (j + 2 < end and _bare(tokens[j + 1]) in ("de", "d", "du")):
        return False
    if _capitalised(tokens[j + 2]) and tokens[j + 2] not in ".!?;":
        return True
    return (j + 3 < end and _bare(tokens[j + 2]) in _DETERMINERS and tokens[j + 3].islower()
            and tokens[j + 3].isalpha() and common(tokens[j].rstrip("'")))


def _company(run: list[str]) -> bool:
    """A name closed by a company's legal form ("Durand SA", "Infogérance Ouest SAS"), or opened by
    a French one ("SARL Transports Dupont")."""
    return len(run) > 1 and (run[-1] in _LEGAL_FORMS or run[0] in _LEADING_FORMS)


def _own_form(tokens: list[str], start: int, i: int, j: int) -> bool:
    """A legal form as a noun after a first or second person possessive ("notre SAS", "ma SCI"):
    the reader's company. "des disques SAS", "créer une SCI" are what is asked about."""
    return i == j and i > start and tokens[i] in _LEGAL_FORMS and _bare(tokens[i - 1]) in _POSSESSIVES


def _organisation(tokens: list[str], start: int, i: int, commas: set[int]) -> bool:
    """A name right after a noun of an organisation ("la société Logistar", "l'association Les
    Amis du Vélo"), no comma between: the reader's company, school or club, not a product."""
    return i > start and i not in commas and tokens[i - 1].islower() and _bare(tokens[i - 1]) in _ORGANISATIONS


def _grade(tokens: list[str], start: int, i: int, j: int) -> bool:
    """A school grade after "en" ("en CE2", "en CM1"): a child's class. "en Python", "en GPT" are
    no grades."""
    return i == j and i > start and _bare(tokens[i - 1]) == "en" and tokens[i].rstrip("'").lower() in _GRADES


def _alternative(tokens: list[str], start: int, i: int) -> bool:
    """A name after "ou" / "or" right after another name ("Facebook ou Instagram"): another
    example of the same thing; the first name keeps its role."""
    return (i - 2 >= start and _bare(tokens[i - 1]) in ("ou", "or") and _capitalised(tokens[i - 2])
            and tokens[i - 2] not in ".!?;")


def _apposition(tokens: list[str], commas: set[int], start: int, end: int) -> set[str]:
    """The capitalised words between commas right after a first or second person possessive and
    its noun ("Notre établissement, la Caisse d'épargne Bretagne, doit-il …"): the reader's own
    organisation or person, named."""
    found: set[str] = set()
    inside = sorted(k for k in commas if start + 2 <= k <= end)
    for c, close in zip(inside, inside[1:]):  # an apposition is closed by the next comma
        if _bare(tokens[c - 2]) in _POSSESSIVES and tokens[c - 1].islower() and tokens[c - 1].isalpha():
            found.update(t.rstrip("'") for t in tokens[c:close] if _capitalised(t) and t not in ".!?;")
    return found


def _host_name(token: str) -> bool:
    """Shaped like a host's name: letters and digits ("SRV-LYON-02", "DC02", "web-prod-3"). A
    product after a machine's noun is a word ("le serveur Exchange", "le poste Windows")."""
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


def _machine(tokens: list[str], start: int, i: int, j: int) -> bool:
    """One host-shaped name right after a machine's noun ("le serveur SRV-LYON-02", "l'hôte
    HV-NANTES-03"), or upper-case after where a machine stands ("Sur SRV-BDX-07", "depuis
    WKS042"): the reader's machine. "le serveur Exchange" names a product: no digit."""
    if i != j or i <= start or not _host_name(tokens[i].rstrip("'")):
        return False
    before = _bare(tokens[i - 1])
    if before in ("et", "and") and i - 3 >= start and _bare(tokens[i - 3]) in ("entre", "between"):
        before = "entre"  # "entre PC117 et FS-LYON-02": the second of the pair
    return before in _MACHINES or (before in _MACHINE_PLACES and tokens[i].rstrip("'").isupper())


def _titled(tokens: list[str], start: int, i: int, j: int) -> bool:
    """A capitalised run after a title ("le docteur Martin"), or one that opens with a title and
    goes on ("Maître Dupont", "Mme Durand"): a person's name."""
    if i > start and _bare(tokens[i - 1]) in _TITLES:
        return True
    return j > i and _bare(tokens[i]) in _TITLES


def _in_context(tokens: list[str], start: int, i: int, j: int, commas: set[int] | frozenset[int] = frozenset()) -> bool:
    before = _bare(tokens[i - 1]) if i > start else ""
    if before in _CONTEXT_BEFORE:
        return True
    # The clause's word may stand a few lower-case words before the name: "que m'a envoyée Thomas".
    for k in range(i - 1, max(start, i - 4) - 1, -1):
        if _bare(tokens[k]) in _CLAUSE:
            if k - 1 >= start and _bare(tokens[k - 1]) not in _NOT_RELATIVE:
                return True
            break
        if not tokens[k].islower():
            break
    if tokens[j].endswith("'") and j + 2 < len(tokens) and tokens[j + 1] == "s" and tokens[j + 2].islower():
        return True  # "John's server", not "Let's Encrypt"
    if (i - 3 >= start and _bare(tokens[i - 3]) in _AT_SOMEONE and _bare(tokens[i - 2]) in _DETERMINERS | {"du", "des"}
            and tokens[i - 1].islower() and tokens[i - 1].isalpha() and not {i, i - 1} & commas):
        return True  # "chez le client Airbus", "at the customer Airbus"
    # "mon collègue Karim", "notre client Total": a possessive, a noun, the name; not across a
    # comma ("Pour notre client, Okta convient-il ?": Okta is what is asked about).
    return (i - 2 >= start and _bare(tokens[i - 2]) in _POSSESSIVES and tokens[i - 1].islower()
            and i not in commas and i - 1 not in commas)


# Where the reader is, or goes: a place's name after one ("en Bretagne", "vers Montréal"); and
# what the reader compares their case with ("assureur comme la MAIF", "comme chez Orange").
_PLACE_BEFORE = frozenset("en vers comme".split())


def places(question: str) -> set[str]:
    """The capitalised words after "en", "vers" or "comme" (an article or "chez" between) that
    French writes more than English does: a region, a country, a town, a French company ("médecin
    en Auvergne", "quand je vole vers Montréal", "assureur comme la MAIF"). "en Python", "en
    Azure", "vers Exchange Online", "comme Okta" name what is asked about, words English writes as
    much. Set aside only when the passages hold the rest of the question (rag.answer.gate_words)."""
    tokens, commas = _tokens(question)
    found: set[str] = set()
    for i in range(1, len(tokens)):
        before = i - 1
        if i >= 2 and _bare(tokens[i - 2]) == "comme" and _bare(tokens[i - 1]) in _ARTICLES | {"chez"} \
                and i - 1 not in commas:
            before = i - 2  # "comme la MAIF", "comme chez Orange"
        if _bare(tokens[before]) not in _PLACE_BEFORE or i in commas or not _capitalised(tokens[i]):
            continue
        word = tokens[i].rstrip("'")
        if word.isalpha() and word.lower() not in _GRADES and more_french(word):
            found.add(word)
    return found


__all__ = ["places", "roles"]
