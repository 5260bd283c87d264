"""Les lignes de la ligne de commande : résumés, état, récupération, migration, évaluation, aperçu."""

TEXT: dict[str, str] = {
    # rag/cli/main.py
    "cli.description": (
        "Atelier RAG local : indexer un blog, prévisualiser le découpage, poser des questions avec "
        "citations, évaluer."
    ),
    "cli.error": "erreur : {message}",
    "cli.warning": "Attention : {message}",
    "cli.interrupted": "interrompu : relancez la même commande pour reprendre",
    # rag/cli/ask.py
    "ask.no_answer": "Aucune réponse n'a été rédigée. {error}",
    "ask.passages": "Passages trouvés (seuil {threshold}, {source}) :",
    "ask.order_note": "  (classés par mots-clés et par sens ensemble : un passage au score plus bas peut venir avant)",
    "ask.below": "(sous le seuil)",
    "ask.answer_urls": "Adresses web ou e-mail écrites par le modèle, absentes des sources (vérifiez-les) : {urls}",
    "ask.sources": "Sources :",
    "ask.invalid": "Citations invalides (aucun extrait de ce numéro n'a été donné au modèle) : {numbers}",
    "ask.uncited": "Attention : la réponse ne cite aucun extrait ; vérifiez-la d'après les passages.",
    "ask.dropped": "Passages écartés (fenêtre de contexte) : {numbers}",
    "threshold.setting": "réglage",
    "threshold.collection": "calibré",
    "threshold.model_default": "défaut du modèle",
    # rag/status.py: `rag status` and the sidebar
    "status.auto_url": "auto : le modèle d'embeddings de {url} s'il répond, sinon le multilingual-e5-small intégré",
    "status.auto_no_server": "auto : aucun serveur ne répond, donc le multilingual-e5-small intégré (384 dimensions)",
    "status.auto_pick": "auto : le modèle d'embeddings du serveur, {model}",
    "status.auto_none": (
        "auto : le serveur ne propose aucun modèle d'embeddings, donc le multilingual-e5-small intégré "
        "(384 dimensions)"
    ),
    "status.llm_up_one": "LM Studio : joignable sur {url}, {n} modèle",
    "status.llm_up_other": "LM Studio : joignable sur {url}, {n} modèles",
    "status.loaded": "chargé",
    "status.not_loaded": "non chargé",
    "status.state_unknown": "état inconnu",
    "status.context": ", contexte {n}",
    "status.unknown_type": "type inconnu",
    "status.llm_down": "LM Studio : NON joignable sur {url}",
    "status.embeddings": "Embeddings d'une nouvelle collection : {choice} ; une collection existante garde son modèle",
    "status.embedded_at": "intégré, dans {location}",
    "status.server_at": "serveur {location}",
    "status.qdrant_down": "Qdrant : {where} : NON disponible",
    "status.qdrant_up_one": "Qdrant : {where}, {n} collection",
    "status.qdrant_up_other": "Qdrant : {where}, {n} collections",
    "status.not_calibrated": "non calibré",
    "status.default": " (par défaut)",
    "status.enrichment": ", enrichissement {mode}",
    "status.collection": (
        "  - {name}{default} : {points} points, modèle {model}, {dimension} dimensions, stratégie "
        "{strategy}{enriched}, seuil {threshold}, mis à jour le {updated}"
    ),
    # rag/cli/fetch.py
    "fetch.no_post_listed": "attention : le site n'a listé aucun article : rien n'a été supprimé",
    "fetch.cannot_remove": "problème : impossible de supprimer {name} : {error}",
    "fetch.removed": "supprimé {name}  (n'est plus sur le site)",
    "fetch.out_is_file": "--out {path} est un fichier, pas un dossier",
    "fetch.prune_modified_after": (
        "--prune ne se combine pas avec --modified-after : le site ne liste alors que les articles "
        "modifiés depuis cette date, et tous les autres fichiers sembleraient supprimés"
    ),
    "fetch.posts_one": "({n} article)",
    "fetch.posts_other": "({n} articles)",
    "fetch.page": "page {page}",
    "fetch.warning": "attention : {problem}",
    "fetch.skipped": "ignoré : {problem}",
    "fetch.problem": "problème : {problem}",
    "fetch.wrote": "écrit {name}  {title}",
    "fetch.written_one": "{n} article écrit dans {path}",
    "fetch.written_other": "{n} articles écrits dans {path}",
    "fetch.n_removed_one": ", {n} supprimé",
    "fetch.n_removed_other": ", {n} supprimés",
    "fetch.n_skipped_one": ", {n} ignoré (sans texte : une simple redirection ou un lien)",
    "fetch.n_skipped_other": ", {n} ignorés (sans texte : une simple redirection ou un lien)",
    "fetch.n_failed_one": ", {n} en échec (voir les problèmes ci-dessus)",
    "fetch.n_failed_other": ", {n} en échec (voir les problèmes ci-dessus)",
    "fetch.n_warnings_one": ", {n} avertissement",
    "fetch.n_warnings_other": ", {n} avertissements",
    # rag/cli/migrate.py
    "migrate.already_edge": "Le stockage intégré de {path} est déjà en Qdrant Edge : rien à déplacer.",
    "migrate.moved": "{name} : {points} points, désormais dans Qdrant Edge",
    "migrate.backup": "Les anciens fichiers sont dans {path}.",
    "migrate.need_to": (
        "--from, --collection et --replace servent à copier des collections : indiquez la destination "
        "avec --to."
    ),
    "migrate.no_store": (
        "Aucun stockage intégré dans {path} : donnez à RAG_DATA_DIR le dossier qui le contient, ou "
        "indiquez la source avec --from."
    ),
    "migrate.not_a_store": (
        "{path} ne contient aucun stockage intégré (il devrait contenir un dossier 'qdrant') : indiquez "
        "le dossier de données (RAG_DATA_DIR) ou l'URL d'un serveur."
    ),
    "migrate.empty": "{store} : aucune collection, rien à copier.",
    "migrate.copying": "Copie de {source} vers {target}",
    "migrate.progress": "  {name} : {copied}/{total} points",
    "migrate.copied": "{name} : {points} points copiés, métadonnées et vecteurs creux compris",
    "migrate.use_server": "Pour utiliser le serveur : export RAG_QDRANT_URL={url} (et RAG_QDRANT_API_KEY s'il en a une).",
    # where the vectors live (Store.describe)
    "store.embedded": "Qdrant intégré ({location})",
    "store.server": "serveur Qdrant {location}",
    "store.local_mode": "dossier Qdrant en mode local ({location})",
    # rag/cli/eval.py
    "eval.progress": "{label} : {done}/{total} questions ({id})",
    "eval.none": "aucune",
    "eval.no_collection": (
        "La collection {name} n'existe pas dans {store} (collections : {existing}). Indexez d'abord une "
        "source : rag ingest SOURCE --collection {name}"
    ),
    "eval.no_earlier_run": "Aucune évaluation précédente de la collection {name} dans {path} à laquelle comparer.",
    "eval.top_k": "--top-k doit valoir au moins 1 (reçu : {value}).",
    "eval.compare_both": (
        "Utilisez --compare (une autre collection) ou --compare-run (une évaluation précédente), pas les "
        "deux."
    ),
    "eval.results": "résultats : {path} et results.csv",
    "eval.question_failed": "question {id} (ligne {line}) en échec, non comptée : {error}",
    "eval.stopped": (
        "l'évaluation s'est arrêtée après {done} questions sur {total} : {why}. Les questions déjà "
        "comptées sont dans {path}."
    ),
    "eval.coverage": ", couverture {value}",
    "eval.saved": (
        "seuil {threshold}{extra} enregistré dans la collection {name} : rag ask l'utilise sauf si "
        "RAG_THRESHOLD est défini"
    ),
    "eval.no_suggestion": "aucune suggestion",
    "eval.partial": "certaines questions n'ont pas été comptées, la calibration est donc partielle",
    "eval.not_saved": "seuil non enregistré : {reason}",
    "eval.llm_errors": "le modèle de chat n'a pas répondu à {n} questions : voir llm_error dans results.csv",
    # rag/cli/preview.py
    "preview.document": "{title}  ({url}, {n} caractères)",
    "preview.chunks_one": "{n} morceau",
    "preview.chunks_other": "{n} morceaux",
    "preview.stats": (
        "   {chunks} ; caractères min {min}, médiane {median}, max {max} ; avertissements : "
        "{warnings}"
    ),
    "preview.window": (
        "Morceaux tels qu'indexés : jetons comptés par le modèle d'embedding intégré, fenêtre de {n} jetons"
    ),
    "preview.window_estimated": (
        "Morceaux tels qu'indexés : jetons estimés (environ {chars} caractères par jeton), fenêtre du modèle "
        "du serveur : {n} jetons"
    ),
    "preview.tokens_estimated": (
        "Jetons estimés (environ {n} caractères par jeton) : le modèle du serveur ne donne pas son compte ici"
    ),
    "preview.window_cut": "(coupé du morceau n° {n} par la fenêtre du modèle)",
    "preview.window_cut_count": "   {pieces} morceaux coupés par la fenêtre de {n} jetons du modèle (indexés comme affiché)",
    "preview.none": "aucun",
    # rag/cli/ingest.py
    "ingest.flag_unused": (
        "{flags} ne s'applique pas à la stratégie {strategy} (ses réglages : {used}) ; choisissez une "
        "autre --strategy ou retirez l'option."
    ),
    "ingest.enriched_by": ", enrichissement {mode} par {model}",
    "ingest.indexing": "Indexation de {source} dans {name} ({store}, stratégie {strategy}{enriched})",
}
