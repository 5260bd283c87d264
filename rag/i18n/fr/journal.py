"""Le journal des questions : ses erreurs et la commande `rag journal`."""

TEXT: dict[str, str] = {
    # rag/config.py: RAG_JOURNAL_NAMES
    "config.not_flag": "{name}={value} n'est ni oui ni non : écrivez 1 ou 0 (true/false)",
    # rag/journal/store.py
    "journal.unreadable": (
        "le journal {path} n'est pas lisible avec vos droits : lancez la commande avec le compte "
        "propriétaire du dossier de données (RAG_DATA_DIR) ou demandez-lui l'accès"
    ),
    "journal.missing": "aucun journal dans {path} : aucune question n'a encore été posée avec ce dossier de données",
    "journal.cannot_open": "le journal {path} ne peut pas être ouvert ({error}) ; réessayez dans un instant",
    "journal.no_entry": "aucune entrée {id} dans le journal (elle a peut-être été supprimée)",
    # rag/cli/journal.py
    "help.journal": "les questions posées par les lecteurs, ou les sujets qu'aucun article ne couvre",
    "help.journal.description": (
        "Le journal des questions (RAG_DATA_DIR/journal) : les plus récentes d'abord, avec leur issue, "
        "les articles des passages et les votes ; `subjects` regroupe les questions refusées en sujets à écrire, "
        "classés par nombre de lecteurs. Les entrées plus anciennes que RAG_JOURNAL_DAYS sont supprimées d'abord."
    ),
    "help.journal.view": "list (par défaut) : les questions ; subjects : les sujets sans article",
    "help.journal.outcome": "seulement cette issue (refused : les deux refus)",
    "help.journal.collection": "seulement cette collection",
    "help.journal.days": "seulement les N derniers jours",
    "help.journal.search": "seulement les questions ou réponses contenant ces mots",
    "help.journal.limit": "au plus N lignes (par défaut : 50)",
    "help.journal.json": "afficher le résultat en JSON uniquement",
    "journal.empty": "Aucune question dans le journal pour ces filtres.",
    "journal.count_one": "{n} question (les {shown} plus récentes) :",
    "journal.count_other": "{n} questions (les {shown} plus récentes) :",
    "journal.why": "pourquoi : {reason}",
    "journal.articles": "articles : {titles}",
    "journal.votes": "votes : {up} pour, {down} contre",
    "journal.no_subjects": "Aucune question refusée dans le journal pour ces filtres.",
    "journal.readers_one": "{n} lecteur",
    "journal.readers_other": "{n} lecteurs",
    "journal.questions_one": "{n} question",
    "journal.questions_other": "{n} questions",
    "journal.answered_now": "un article indexé depuis répond maintenant à {n} de ces questions : {titles}",
    "journal.reader_n": "lecteur {n}",
    "journal.no_account": "sans compte",
    "journal.outcome.answered": "répondu",
    "journal.outcome.refused_gate": "refusé par le filtre",
    "journal.outcome.refused_model": "refusé par le modèle",
    "journal.outcome.passages_only": "passages seuls",
    "journal.outcome.failed": "échec",
    # rag/evaluate/question_sets.py
    "qsets.bad_name": "{name} n'est pas un nom de jeu de questions : lettres, chiffres, espaces, - . _ (64 au plus)",
    "qsets.no_set": "aucun jeu de questions {name} ({path})",
    "qsets.already": "cette question est déjà dans le jeu {name} (id {id})",
}
