"""L'index : le rapport et la progression de l'indexation, le stockage, ses collections, la migration."""

TEXT: dict[str, str] = {
    # rag/ingest: ingestion's report, progress and warnings
    "index.size_note": (
        "la collection compte {points} morceaux, plus que les {limit} avec lesquels le stockage intégré "
        "a été mesuré (benchmarks/README.md) : elle fonctionne toujours, mais au-delà un serveur Qdrant "
        "(RAG_QDRANT_URL, `rag migrate`) est le choix mesuré"
    ),
    "report.ingest": (
        "Collection {name} ({strategy}, {model}) : nouveaux {new}, modifiés {changed}, inchangés "
        "{unchanged}, {skipped}en échec {failed}, retirés {pruned} ; {written} en {time}."
    ),
    "report.ingest_skipped": "ignorés (sans texte) {n}, ",
    "report.verify_failed": "Vérification ÉCHOUÉE : {error}",
    "report.written_one": "{n} morceau écrit",
    "report.written_other": "{n} morceaux écrits",
    "report.verified_one": "{n} point stocké vérifié (taille du vecteur, non nul).",
    "report.verified_other": "{n} points stockés vérifiés (taille des vecteurs, non nuls).",
    "report.aborted": "Arrêt anticipé : {why}",
    "report.warning": "attention : {message}",
    "report.skipped": "{item} : {reason}",
    "report.failed_doc": "ÉCHEC {item} : {reason}",
    "ingest.source_failed": "la source a échoué : {error}",
    "ingest.nothing_listed": (
        "la source n'a listé aucun document : rien n'a été retiré ; pour vider la collection "
        "volontairement, reconstruisez-la avec --full"
    ),
    "ingest.twice": "{url} : la source a listé cette url deux fois ; la seconde copie a été ignorée",
    "ingest.reembedded": "{url} : ses vecteurs stockés étaient inutilisables : recalculés",
    "ingest.chunking_failed": "le découpage a échoué : {error}",
    "ingest.no_chunks": "aucun texte à indexer (le document n'a produit aucun morceau)",
    "ingest.failed_embed": "{n} documents de suite n'ont pas pu être vectorisés ; dernière erreur : {error}",
    "ingest.failed_contexts": (
        "{n} documents de suite n'ont pas obtenu leur contexte du modèle de chat ; dernière erreur : "
        "{error}"
    ),
    "report.relinked_one": (
        "{n} document inchangé avait une nouvelle adresse : mise à jour sur "
        "place, sans nouveau calcul des vecteurs."
    ),
    "report.relinked_other": (
        "{n} documents inchangés avaient une nouvelle adresse : mise à jour sur "
        "place, sans nouveau calcul des vecteurs."
    ),
    "ingest.kept_unlisted_one": "{n} document que cette lecture n'a pas listé a été gardé : {reason}",
    "ingest.kept_unlisted_other": "{n} documents que cette lecture n'a pas listés ont été gardés : {reason}",
    "ingest.prune_kept_private": (
        "cette lecture n'était pas authentifiée : elle ne liste aucun article privé ; "
        "donnez --user et --app-password pour les élaguer"
    ),
    "ingest.prune_kept_site": "ils ne viennent pas de ce site",
    "ingest.withdrawn": "{url} : sa copie précédente a été retirée de la collection",
    "ingest.needs_enricher": (
        "{name} est enrichie par le modèle de chat ({mode}) : une relance en a besoin aussi ; "
        "relancez avec --enrich {mode}, LM Studio démarré"
    ),
    "embed.over_limit": (
        "plus de {n} tokens : vectorisé comme la moyenne de fenêtres de {n} tokens, son vecteur est donc "
        "dilué et il est moins bien retrouvé ; une stratégie à plus petits morceaux l'évite"
    ),
    "enrich.summary": "Enrichissement {mode} : {n} contextes.",
    "enrich.summary_model": (
        "Enrichissement {mode} ({model}) : {n} contextes, {cached} depuis le cache, {generated} écrits "
        "par le modèle : {prompt} tokens de prompt + {answer} tokens de réponse en {time}."
    ),
    "progress.documents_one": "{docs} document",
    "progress.documents_other": "{docs} documents",
    "progress.chunks_one": "{n} morceau",
    "progress.chunks_other": "{n} morceaux",
    "progress.rate_one": "{rate} morceau/s",
    "progress.rate_other": "{rate} morceaux/s",
    "progress.contexts": "contextes : {tokens} tokens en {time}",
    "progress.eta": "environ {time} restant",
    "progress.phase_item": "{phase} : {item}",
    "phase.reading": "lecture",
    "phase.enriching": "enrichissement",
    "phase.embedding": "vectorisation",
    "phase.writing": "écriture",
    "phase.indexed": "indexé",
    "phase.pruning": "nettoyage",
    "phase.verifying": "vérification",
    "phase.done": "terminé",
    "outcome.new": "nouveau",
    "outcome.changed": "modifié",
    "outcome.unchanged": "inchangé",
    "outcome.skipped": "ignoré",
    "outcome.failed": "échec",
    "outcome.warning": "avertissement",
    "replace.origin": "venant de {source}, lisible par {groups}",
    "replace.unknown_source": "une source inconnue",
    "replace.nobody": "personne",
    "replace.sentence": "{url} : le document indexé ({old}) serait remplacé par celui-ci ({new})",
    "replace.held_back_run": (
        "non indexé : {sentence} ; pour le remplacer, dites-le (rag ingest --replace, "
        "ou la confirmation de la page Ingestion)"
    ),
    "bounds.outside": "non indexé : il serait lisible par {groups}, des groupes dont vous n'êtes pas membre",
    "bounds.hidden": "non indexé : un document que vous ne pouvez pas lire porte déjà cette adresse",
    "replace.held_back": "non indexé : {sentence} ; confirmez pour le remplacer",
    # rag/store: the store, its collections, migration
    "store.no_collection": (
        "La collection {name} n'existe pas dans {store}. Indexez d'abord une source : rag ingest SOURCE "
        "--collection {id}"
    ),
    "store.no_model": (
        "La collection {name} n'indique aucun modèle d'embeddings (elle n'a pas été construite par `rag "
        "ingest`). Prenez un autre nom de collection (--collection NAME)."
    ),
    "store.dimensions": " ({n} dimensions)",
    "store.other_model": (
        "La collection {name} a été construite avec le modèle d'embeddings {built} ({dims} dimensions), "
        "mais le modèle actuel est {now}. Les vecteurs de deux modèles ne se comparent pas : indexez "
        "dans une nouvelle collection (--collection NAME), reconstruisez celle-ci avec --full, ou "
        "reprenez le modèle d'origine {built} (RAG_EMBED_MODEL)."
    ),
    "store.sparse_newer": (
        "La collection {name} a été construite par une version plus récente de rag (mots-clés de "
        "version {version}, celle-ci fait ceux de la version {known}) : ses mots-clés ne se comparent "
        "pas à ceux de cette version. Mettez rag à jour, cherchez sans mots-clés (--mode dense), ou "
        "reconstruisez la collection avec cette version : rag ingest SOURCE --collection {id} --full"
    ),
    "store.no_threshold": "La collection {name} n'existe pas : impossible d'enregistrer un seuil.",
    "store.unknown_fusion": "Fusion inconnue {fusion} : choisissez parmi {known}.",
    "store.folder_held": (
        "Un autre processus tient le dossier Qdrant {location} (par ex. un `streamlit run` ou un `rag "
        "ingest` d'une version antérieure en cours). Arrêtez-le, ou utilisez un serveur Qdrant pour un "
        "accès concurrent : définissez RAG_QDRANT_URL (par ex. http://localhost:6333)."
    ),
    "store.url_needed": "Il faut l'URL d'un serveur Qdrant (RAG_QDRANT_URL).",
    "store.unreachable": (
        "Le serveur Qdrant ne répond pas sur {location} ({error}). Lancez-le (docker compose up -d "
        "qdrant) ou retirez RAG_QDRANT_URL pour utiliser le stockage intégré."
    ),
    "store.refused": "Le serveur Qdrant {location} a refusé la requête ({status}) : vérifiez RAG_QDRANT_API_KEY.",
    "store.status": "Qdrant ({location}) a répondu {status} : {detail}",
    "name.bad_suggest": (
        "« {name} » ne peut pas nommer une collection : lettres sans accent, chiffres, « - » et « _ » "
        "seulement, sans espace. Par exemple : {suggestion}"
    ),
    "name.bad": (
        "« {name} » ne peut pas nommer une collection : lettres sans accent, chiffres, « - » et « _ » "
        "seulement, sans espace, 64 au plus."
    ),
    "store.bad_name": (
        "Le stockage intégré n'accepte pas le nom de collection {name} : utilisez de 1 à 64 lettres sans accent, "
        "chiffres, '-' ou '_', en commençant par une lettre ou un chiffre."
    ),
    "store.disk_full": (
        "Pas assez d'espace libre sur le disque de {path} : {free} Mo libres, {needed} Mo nécessaires pour cette "
        "écriture, et {reserve} Mo gardés libres (RAG_MIN_FREE_MB). Rien de cette écriture n'a été fait et ce qui est "
        "déjà indexé est conservé : libérez de la place et relancez (les documents déjà indexés ne sont pas refaits)."
    ),
    "store.missing": "La collection {name} n'existe pas dans {store}.",
    "store.cannot_open": "Impossible d'ouvrir la collection intégrée {name} dans {path} : {error}",
    "store.old_name": (
        "L'ancien stockage de {path} contient une collection nommée {name} : copiez-la vers un serveur "
        "Qdrant avec le `rag migrate --to URL` d'une version antérieure, ou renommez-la là-bas."
    ),
    "store.move_blocked": (
        "Impossible de terminer le passage du stockage intégré à Qdrant Edge : {target} existe déjà. "
        "Déplacez-le ; les collections copiées attendent dans {staging}."
    ),
    "store.meta_unreadable": (
        "Les métadonnées de collection {path} sont illisibles ({error}). Restaurez-les depuis une "
        "sauvegarde, ou supprimez la collection et indexez de nouveau."
    ),
    "store.meta_not_object": "Les métadonnées de collection {path} ne sont pas un objet JSON : restaurez-les ou réindexez.",
    "store.process": "le processus {pid}",
    "store.another_process": "un autre processus",
    "store.held": (
        "Un autre processus tient le stockage Qdrant intégré de {path} : il est tenu par {who} (par ex. "
        "un `streamlit run` ou un `rag ingest` en cours). Arrêtez-le, ou utilisez un serveur Qdrant pour "
        "un accès concurrent : définissez RAG_QDRANT_URL (par ex. http://localhost:6333)."
    ),
    "store.index_kind": "Type d'index de payload inconnu {kind} : utilisez l'un de {kinds}.",
    "store.other_strategy": (
        "{name} a été construite avec la stratégie {built} ({recorded}) ; cette indexation demande "
        "{strategy} ({wanted}). Reconstruisez-la avec --full, ou indexez dans une autre collection "
        "(--collection NAME)."
    ),
    "store.default_settings": "réglages par défaut",
    "migrate.batch": "La taille de lot doit valoir au moins 1 (reçu : {value}).",
    "migrate.same": "La source et la destination sont identiques ({store}) : rien à copier.",
    "migrate.no_collection": (
        "La collection {name} n'existe pas dans {store} (collections présentes : {available}). "
        "Choisissez-en une avec --collection NAME."
    ),
    "migrate.exists": (
        "La collection {name} existe déjà dans {store} ({n} points). Ajoutez --replace pour l'écraser, "
        "ou copiez-la sous un autre nom."
    ),
    "migrate.no_size": "La collection {name} de {store} n'indique aucune taille de vecteur : impossible de la copier.",
    "migrate.short": (
        "La copie de {name} a laissé {written} points dans {store} au lieu de {total}. Relancez la "
        "commande avec --replace."
    ),
}
