"""L'évaluation : le rapport, les jeux de questions, les campagnes, la calibration."""

TEXT: dict[str, str] = {
    # rag/evaluate/report.py: an evaluation in sentences (CLI, dashboard)
    "report.l.answer_in_context": "réponse dans le contexte",
    "report.l.in_base_accepted": "questions du corpus acceptées",
    "report.l.out_of_base_refused": "hors sujet refusées",
    "report.l.threshold": "seuil",
    "report.l.suggested_threshold": "seuil suggéré",
    "report.l.answer_contains_expected": "réponse contenant l'attendu",
    "report.l.refusal_rate_out_of_base": "refus hors sujet",
    "report.l.refusal_rate_in_base": "refus dans le corpus",
    "report.l.invalid_citation_rate": "citations invalides",
    "report.l.uncited_rate": "réponses sans citation",
    "report.l.prompt_tokens_mean": "tokens du prompt (moyenne)",
    "report.l.first_token_seconds_median": "secondes avant le premier mot (médiane)",
    "report.na": "n.d.",
    "report.model": "modèle {model}",
    "report.strategy": "stratégie {strategy}",
    "report.mode": "recherche {mode}",
    "report.mode_hybrid": "hybride",
    "report.mode_dense": "dense",
    "report.collection": "Collection {name} ({parts})",
    "report.failed_one": "{n} question en échec, non comptée : {ids}",
    "report.failed_other": "{n} questions en échec, non comptées : {ids}",
    "report.stopped": (
        "arrêt après {done} questions sur {total} ({why}) ; les chiffres portent sur les "
        "questions comptées"
    ),
    "report.questions_one": "{n} question : {n_in} dans le corpus, {n_out} hors sujet",
    "report.questions_other": "{n} questions : {n_in} dans le corpus, {n_out} hors sujet",
    "report.unknown_sources_one": (
        "attention : {n} url de source attendue est absente de la collection, ses questions ne "
        "peuvent donc pas être trouvées (une faute de frappe, ou l'article n'a pas été indexé) : {ids}"
    ),
    "report.unknown_sources_other": (
        "attention : {n} url de source attendues sont absentes de la collection, leurs questions ne "
        "peuvent donc pas être trouvées (une faute de frappe, ou l'article n'a pas été indexé) : {ids}"
    ),
    "report.hit1": "hit@1 {pct} (le bon article en premier pour {n} sur {total} questions du corpus)",
    "report.hit3": "hit@3 {pct} ({n} sur {total} le trouvent dans les 3 premiers passages)",
    "report.hitk": "hit@{k} {pct} ({n} sur {total} le trouvent parmi les {k} passages retenus)",
    "report.mrr": "MRR {value} (1,00 = toujours premier, 0,50 = deuxième en moyenne)",
    "report.categories": "par catégorie de question :",
    "report.category": "  {name} ({questions}) : {parts}",
    "report.category_in": "premier {first} sur {n_in}, parmi les {k} passages {found} sur {n_in}, répondues {answered} sur {n_in}",
    "report.category_out": "refusées {refused} sur {n_out}",
    "report.category_none": "(sans catégorie)",
    "cal.small_sample": (
        "attention : ce seuil vient de {n_in} questions du corpus et {n_out} hors sujet ; il en faut au "
        "moins {min_in} et {min_out} pour le calibrer. Il est enregistré, mais une ou deux questions de "
        "plus peuvent le déplacer : ajoutez des questions au jeu et relancez l'évaluation."
    ),
    "report.no_in_base": "aucune question du corpus : la qualité de la recherche ne peut pas être mesurée",
    "report.context_na": "réponse dans le contexte n.d. (aucune question du corpus n'a d'expected_answer)",
    "report.context": (
        "réponse dans le contexte {pct} (la réponse attendue figure mot pour mot dans les passages "
        "pour {n} sur {total})"
    ),
    "report.at_threshold": (
        "au seuil {threshold} : réponse pour {accepted} sur {n_in} questions du corpus "
        "({accepted_pct}), refus pour {refused} sur {n_out} hors sujet ({refused_pct})"
    ),
    "report.versus": " ; {value} au seuil actuel",
    "report.suggested": (
        "seuil suggéré {threshold} : {accepted} sur {n_in} avec réponse, {refused} sur {n_out} refusées "
        "(exactitude équilibrée {accuracy}{versus})"
    ),
    "report.coverage": ", couverture {value}",
    "report.gate_suggested": (
        "réglages suggérés : seuil {threshold}{coverage} : réponse pour {accepted} sur {n_in} questions du corpus, "
        "refus pour {refused} sur {n_out} hors sujet"
    ),
    "report.no_suggested": "pas de seuil suggéré : {reason}",
    "report.llm_down": (
        "le modèle de chat est injoignable (pas de réponse pour {n} sur {asked} questions) : pas de mesures sur "
        "les réponses ; lancez LM Studio et recommencez"
    ),
    "report.contains": "réponses contenant le texte attendu {pct} ({n} sur {total})",
    "report.refused": "questions hors sujet refusées {pct} ({n} sur {total})",
    "report.invalid": "réponses citant un extrait inexistant {pct} ({n} réponses sur {total})",
    "report.uncited": "réponses sans citation {pct} ({n} réponses sur {total})",
    "report.cost": "coût des passages envoyés : ",
    "report.tokens": "{n} tokens de prompt en moyenne",
    "report.no_tokens": "tokens de prompt non communiqués",
    "report.first_word": ", premier mot après {time} (médiane)",
    "report.no_answer": "{n} questions sans réponse du modèle de chat (voir llm_error dans le CSV)",
    "report.same": "identique",
    "report.points": "{n} points",
    "report.side": "{label} = {name} (stratégie {strategy}, modèle {model}, recherche {mode}, top {k})",
    "report.same_threshold": "toutes deux mesurées au seuil {threshold}",
    "report.two_thresholds": (
        "mesurées à deux seuils (A {a}, B {b}, deux modèles d'embeddings) : les parts acceptées et "
        "refusées diffèrent en partie pour cette raison"
    ),
    "report.sets_differ": (
        "les jeux de questions diffèrent : {n} questions en commun (seules celles-ci sont comparées une "
        "à une)"
    ),
    "report.found": "trouvées par les deux {both}, par A seule {a}, par B seule {b}, par aucune {neither}",
    "report.a_only": "  trouvées par A seule : {ids}",
    "report.b_only": "  trouvées par B seule : {ids}",
    "report.rank_changed": "rang modifié pour {n} questions ({better} meilleures dans B, {worse} moins bonnes)",
    "report.metric_line": "  {label} : {change}",
    "report.rank_line": "  {id} : {a} -> {b}",
    "report.missed": "manquée",
    # rag/evaluate: question sets, runs, calibration
    "qs.line": "ligne {line} : {message}",
    "qs.problems_one": "{source} : 1 problème dans le jeu de questions",
    "qs.problems_other": "{source} : {n} problèmes dans le jeu de questions",
    "qs.more": "... et {n} de plus",
    "qs.fix": "Corrigez ces lignes et relancez.",
    "qs.text_or_null": "'{name}' doit être du texte ou null, reçu : {kind} {value}",
    "qs.missing": "champ '{name}' manquant",
    "qs.text": "'{name}' doit être du texte, reçu : {kind} {value}",
    "qs.default_source": "jeu de questions",
    "qs.missing_in_base": "champ 'in_base' manquant (true ou false)",
    "qs.in_base_no_source": "in_base vaut true mais expected_source manque : donnez l'url de l'article qui répond",
    "qs.off_topic_with_source": (
        "in_base vaut false mais expected_source est renseigné : une question hors sujet n'a pas de source "
        "(mettez in_base à true, ou videz expected_source)"
    ),
    "qs.empty_question": "champ 'question' manquant (il est vide)",
    "qs.too_long": (
        "'question' fait {n} caractères, au-delà des {limit} permis pour une question : raccourcissez-la "
        "(un article collé ? une ligne CSV avec un guillemet non fermé ?)"
    ),
    "qs.in_base": "'in_base' doit valoir true ou false, reçu : {kind} {value}",
    "qs.also_in": "'also_in' doit être une liste d'urls, reçu : {kind} {value}",
    "qs.duplicate": "id en double {id} (déjà utilisé ligne {first})",
    "qs.bad_json": "JSON invalide ({error} à la colonne {column})",
    "qs.not_object": "un objet JSON {{...}} était attendu, reçu : {kind}",
    "qs.also_in_json": "'also_in' ressemble à une liste JSON mais n'est pas du JSON valide ({error})",
    "qs.header_one": "il manque à la ligne d'en-tête la colonne {missing} ; colonnes attendues : {expected}",
    "qs.header_other": "il manque à la ligne d'en-tête les colonnes {missing} ; colonnes attendues : {expected}",
    "qs.cells": "{n} cellules mais l'en-tête a {columns} colonnes (un séparateur de trop ?)",
    "qs.in_base_csv": "'in_base' doit valoir true/false (ou 1/0, oui/non), reçu : {value}",
    "qs.empty": "{source} : le jeu de questions est vide ; ajoutez une question par ligne",
    "qs.not_utf8": (
        "{source} : la ligne {line} n'est pas du texte UTF-8 ; enregistrez le fichier en UTF-8 (dans un "
        "tableur : 'CSV UTF-8')"
    ),
    "qs.format": "format de jeu de questions inconnu {fmt} : utilisez jsonl ou csv",
    "qs.no_file": "{source} : fichier introuvable ; indiquez le chemin d'un jeu de questions .jsonl ou .csv",
    "qs.unreadable": "{source} : illisible ({error})",
    "runs.none": "Aucun résultat dans {path} : indiquez un dossier d'évaluation de `rag eval` ou son results.json",
    "runs.bad_json": "{path} n'est pas du JSON valide ({error}) ; relancez `rag eval` pour le réécrire",
    "runs.not_results": "{path} n'est pas un fichier de résultats de `rag eval` (pas de summary/questions)",
    "run.in_a_row": "{n} questions de suite en échec ; dernière erreur : {error}",
    "run.raised": "la question {id} a échoué : {error}",
    "run.interrupted": "interrompu à la question {id}",
    "run.no_collection": (
        "La collection {name} n'existe pas ; indexez-y d'abord une source (rag ingest SOURCE "
        "--collection {id})."
    ),
    "cal.no_overlap": (
        "aucun chevauchement à mesurer : le jeu doit contenir des questions du corpus et des questions "
        "hors sujet"
    ),
    "cal.separated": (
        "les deux groupes sont entièrement séparés : chaque question du corpus a un score supérieur à "
        "chaque question hors sujet (plus bas du corpus {worst_in}, plus haut hors sujet {best_out})"
    ),
    "cal.in_below_one": "{n} question du corpus a un score inférieur à la meilleure hors sujet ({best_out})",
    "cal.in_below_other": "{n} questions du corpus ont un score inférieur à la meilleure hors sujet ({best_out})",
    "cal.in_tied_one": "{n} question du corpus a un score inférieur ou égal à la meilleure hors sujet ({best_out})",
    "cal.in_tied_other": "{n} questions du corpus ont un score inférieur ou égal à la meilleure hors sujet ({best_out})",
    "cal.out_above_one": (
        "et {n} question hors sujet a un score supérieur ou égal à la moins bonne du corpus ({worst_in}) "
        ": aucun seuil ne les sépare toutes ; la règle de refus du prompt doit rattraper le reste"
    ),
    "cal.out_above_other": (
        "et {n} questions hors sujet ont un score supérieur ou égal à la moins bonne du corpus "
        "({worst_in}) : aucun seuil ne les sépare toutes ; la règle de refus du prompt doit rattraper le "
        "reste"
    ),
    "cal.no_scores": "aucun score : le jeu n'a aucune question avec un passage trouvé",
    "cal.no_out": (
        "aucune question hors sujet (in_base false) dans le jeu : ajoutez une dizaine de questions "
        "auxquelles le blog ne répond pas, pour placer un seuil entre les deux groupes"
    ),
    "cal.no_in": (
        "aucune question du corpus dans le jeu : ajoutez des questions auxquelles le blog répond, avec "
        "leur article"
    ),
    "cal.gate_no_out": (
        "aucune question hors sujet (in_base false) dans le jeu : ajoutez une dizaine de questions "
        "auxquelles le blog ne répond pas"
    ),
    "cal.gate_no_in": "aucune question du corpus avec un passage trouvé",
    "cal.gate_all_refused_one": "à ces réglages, le filtre refuse les {outside} questions hors sujet ; {n} question du corpus refusée",
    "cal.gate_all_refused_other": "à ces réglages, le filtre refuse les {outside} questions hors sujet ; {n} questions du corpus refusées",
    "cal.gate_through_one": (
        "à ces réglages, {n} question hors sujet sur {outside} passe le filtre (proximité et mots) "
        ": la règle de refus du prompt doit la rattraper"
    ),
    "cal.gate_through_other": (
        "à ces réglages, {n} questions hors sujet sur {outside} passent le filtre (proximité et "
        "mots) : la règle de refus du prompt doit les rattraper"
    ),
    "cal.gate_in_refused_one": " ; {n} question du corpus refusée",
    "cal.gate_in_refused_other": " ; {n} questions du corpus refusées",
    "cal.gate_none": "aucun réglage ne répond à {share} des questions du corpus",
    "cal.criterion": (
        "meilleure exactitude équilibrée : (part des questions du corpus acceptées + part des questions "
        "hors sujet refusées) / 2 ; à égalité, le seuil le plus bas, pour que l'atelier réponde plutôt "
        "qu'il ne refuse"
    ),
    "cal.gate_criterion": (
        "le plus de questions hors sujet refusées tant qu'au moins {share} des questions du corpus ont "
        "une réponse ; à égalité, les réglages les plus bas, pour que l'atelier réponde plutôt qu'il ne "
        "refuse"
    ),
    "access.denied": "Il faut le rôle d'éditeur (connecté en tant que {role}) : demandez à un éditeur.",
    "run.no_terms": (
        "la collection n'a pas de statistiques de termes (construite avant elles) : le filtre n'utilise "
        "que le cosinus ; `rag ingest SOURCE --full` la reconstruit"
    ),
    "store.no_collection_at_all": "aucune collection",
    "store.upgraded": (
        "Le stockage intégré de {path} était en mode local de qdrant-client : déplacé vers Qdrant Edge "
        "({names} ; {points} points, identifiants et payloads inchangés). Les anciens fichiers sont "
        "gardés dans {backup} : supprimez ce dossier une fois satisfait."
    ),
    "store.upgrading": "Déplacement du stockage intégré de {path} du mode local de qdrant-client vers Qdrant Edge...",
    "src.yaml_unclosed": "le front matter ouvert par --- à la ligne 1 n'est jamais fermé par une ligne ---",
    "src.yaml_not_mapping": "le front matter n'est pas une liste de paires clé: valeur",
}
