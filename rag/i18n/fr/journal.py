"""Le journal des questions : ses erreurs et la commande `rag journal`."""

TEXT: dict[str, str] = {
    # rag/journal/store.py
    "journal.unreadable": (
        "le journal {path} n'est pas lisible avec vos droits : lancez la commande avec le compte "
        "propriétaire du dossier de données (RAG_DATA_DIR) ou demandez-lui l'accès"
    ),
    "journal.missing": "aucun journal dans {path} : aucune question n'a encore été posée avec ce dossier de données",
    "journal.cannot_open": "le journal {path} ne peut pas être ouvert ({error}) ; réessayez dans un instant",
    "journal.no_entry": "aucune entrée {id} dans le journal (elle a peut-être été supprimée)",
}
