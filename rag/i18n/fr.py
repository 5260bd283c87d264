"""Les messages de rag en français : les lignes de la ligne de commande et les erreurs de la bibliothèque.

Mêmes clés et mêmes `{placeholders}` que en.py (un test le vérifie). Commandes, options, chemins,
noms de variables et d'attributs restent tels quels dans un message.
"""

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
    "ask.answer_urls": "Adresses web écrites par le modèle, absentes des sources (vérifiez-les) : {urls}",
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
    "report.pct": "{value} %",
    "report.model": "modèle {model}",
    "report.strategy": "stratégie {strategy}",
    "report.mode": "recherche {mode}",
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
    "report.hit1": "hit@1 {pct} ({n} questions du corpus sur {total} trouvent le bon article en premier)",
    "report.hit3": "hit@3 {pct} ({n} sur {total} le trouvent dans les 3 premiers passages)",
    "report.hitk": "hit@{k} {pct} ({n} sur {total} le trouvent parmi les {k} passages retenus)",
    "report.mrr": "MRR {value} (1.00 = toujours premier, 0.50 = deuxième en moyenne)",
    "report.no_in_base": "aucune question du corpus : la qualité de la recherche ne peut pas être mesurée",
    "report.context_na": "réponse dans le contexte n.d. (aucune question du corpus n'a d'expected_answer)",
    "report.context": (
        "réponse dans le contexte {pct} ({n} réponses attendues sur {total} figurent mot pour mot dans "
        "les passages)"
    ),
    "report.at_threshold": (
        "au seuil {threshold} : {accepted} questions du corpus sur {n_in} ont une réponse "
        "({accepted_pct}), {refused} hors sujet sur {n_out} sont refusées ({refused_pct})"
    ),
    "report.versus": " ; {value} au seuil actuel",
    "report.suggested": (
        "seuil suggéré {threshold} : {accepted} sur {n_in} avec réponse, {refused} sur {n_out} refusées "
        "(exactitude équilibrée {accuracy}{versus})"
    ),
    "report.coverage": ", couverture {value}",
    "report.gate_suggested": (
        "réglages suggérés : seuil {threshold}{coverage} : {accepted} questions du corpus sur {n_in} avec réponse, "
        "{refused} hors sujet sur {n_out} refusées"
    ),
    "report.no_suggested": "pas de seuil suggéré : {reason}",
    "report.llm_down": (
        "le modèle de chat est injoignable ({n} questions sur {asked} sans réponse) : pas de mesures sur "
        "les réponses ; lancez LM Studio et recommencez"
    ),
    "report.contains": "réponses contenant le texte attendu {pct} ({n} sur {total})",
    "report.refused": "questions hors sujet refusées {pct} ({n} sur {total})",
    "report.invalid": "réponses citant un extrait inexistant {pct} ({n} réponses sur {total})",
    "report.uncited": "réponses sans citation {pct} ({n} réponses sur {total})",
    "report.cost": "coût des passages envoyés : ",
    "report.tokens": "{n} tokens de prompt en moyenne",
    "report.no_tokens": "tokens de prompt non communiqués",
    "report.first_word": ", premier mot après {seconds} s (médiane)",
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
    # rag/cli/preview.py
    "preview.document": "{title}  ({url}, {n} caractères)",
    "preview.chunks_one": "{n} morceau",
    "preview.chunks_other": "{n} morceaux",
    "preview.stats": (
        "   {chunks} ; caractères min {min}, médiane {median}, max {max} ; avertissements : "
        "{warnings}"
    ),
    "preview.none": "aucun",
    # rag/answer/llm.py: the chat server
    "llm.unreachable": (
        "Le serveur de chat ne répond pas sur {url} ({error}). Lancez le serveur local de LM Studio "
        "(onglet Developer, ou `lms server start`) ou corrigez l'adresse dans RAG_LLM_URL."
    ),
    "llm.in_container": (
        "Ce programme tourne dans un conteneur, où localhost désigne le conteneur lui-même : utilisez "
        "http://host.docker.internal:1234/v1 pour joindre LM Studio sur la machine hôte."
    ),
    "llm.timeout": (
        "Le serveur de chat {url} a mis plus de {seconds} s à {what}. Le modèle est peut-être encore en "
        "cours de chargement, ou trop lent pour ce prompt : réessayez, prenez un modèle plus petit ou "
        "moins de passages (top k plus bas), ou augmentez RAG_TIMEOUT."
    ),
    "llm.to_list": "lister ses modèles",
    "llm.to_answer": "répondre",
    "llm.check_url": "Vérifiez que RAG_LLM_URL désigne un serveur compatible OpenAI, comme LM Studio.",
    "llm.check_url_key": (
        "Vérifiez que RAG_LLM_URL désigne un serveur compatible OpenAI, comme LM Studio, et que "
        "RAG_LLM_API_KEY est correcte."
    ),
    "llm.embed_only": " (seuls des modèles d'embeddings sont chargés : {models})",
    "llm.no_chat_model": (
        "Aucun modèle de chat n'est chargé dans LM Studio sur {url}{extra}. Chargez-en un (`lms load "
        "<model> --context-length 8192`, ou l'onglet Developer) ou définissez RAG_LLM_MODEL."
    ),
    "llm.incomplete": (
        "Le serveur de chat {url} a fermé le flux avant la fin de la réponse. Son journal dit pourquoi ; "
        "cause fréquente : un prompt plus long que la longueur de contexte avec laquelle le modèle "
        "{model} est chargé : chargez-le avec un --context-length plus grand ou demandez avec un top k "
        "plus bas."
    ),
    "llm.unreadable": "Le serveur de chat {url} a renvoyé une réponse que ce programme ne sait pas lire.",
    "llm.overflow": (
        "Le prompt dépasse la longueur de contexte avec laquelle le modèle {model} est chargé (le "
        "serveur dit : {said}). Chargez le modèle avec un contexte plus grand (`lms load {id} "
        "--context-length 16384`) ou demandez avec un top k plus bas."
    ),
    "llm.not_found": (
        "LM Studio n'a pas de modèle {model} chargé. Modèles de chat chargés : {loaded}. Donnez à "
        "RAG_LLM_MODEL l'un d'eux (ou laissez-la vide pour prendre celui qui est chargé), ou chargez ce "
        "modèle dans LM Studio."
    ),
    "llm.none": "aucun",
    "llm.none_loaded": (
        "LM Studio sur {url} n'a aucun modèle de chat chargé (le serveur dit : {said}). Chargez-en un "
        "(`lms load <model> --context-length 8192`, ou l'onglet Developer) et reposez la question."
    ),
    "llm.status": "Le serveur de chat {url} a répondu {status} : {said}.",
    "llm.no_details": "sans détails",
    # rag/index: ingestion's report, progress and warnings
    "index.size_note": (
        "la collection compte {points} morceaux, plus que les {limit} avec lesquels le stockage intégré "
        "a été mesuré (benchmarks/README.md) : elle fonctionne toujours, mais au-delà un serveur Qdrant "
        "(RAG_QDRANT_URL, `rag migrate`) est le choix mesuré"
    ),
    "report.ingest": (
        "Collection {name} ({strategy}, {model}) : nouveaux {new}, modifiés {changed}, inchangés "
        "{unchanged}, {skipped}en échec {failed}, retirés {pruned} ; {written} en {seconds} s."
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
        "par le modèle : {prompt} tokens de prompt + {answer} tokens de réponse en {seconds} s."
    ),
    "progress.documents_one": "{docs} document",
    "progress.documents_other": "{docs} documents",
    "progress.chunks_one": "{n} morceau",
    "progress.chunks_other": "{n} morceaux",
    "progress.rate": "{rate} morceaux/s",
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
    "replace.held_back": "non indexé : {sentence} ; confirmez pour le remplacer",
    # rag/cli/ingest.py
    "ingest.flag_unused": (
        "{flags} ne s'applique pas à la stratégie {strategy} (ses réglages : {used}) ; choisissez une "
        "autre --strategy ou retirez l'option."
    ),
    "ingest.enriched_by": ", enrichissement {mode} par {model}",
    "ingest.indexing": "Indexation de {source} dans {name} ({store}, stratégie {strategy}{enriched})",
    # rag/sources: folders, files, web pages
    "src.no_such_path": (
        "Fichier ou dossier introuvable : {path}{hint}. Indiquez l'adresse d'un site WordPress "
        "(https://...) ou un dossier de fichiers .md, .markdown, .html ou .htm."
    ),
    "src.url_hint": " (une adresse web commence par https:// ou http://)",
    "src.not_a_document": "{path} n'est pas un fichier .md, .markdown, .html ou .htm",
    "src.preview_folder": (
        "{path} est un dossier : la prévisualisation lit un seul document. Indiquez un de ses fichiers .md, .markdown, .html ou .htm."
    ),
    "src.no_such_file": (
        "Fichier introuvable : {path}. Indiquez un fichier .md, .markdown, .html ou .htm, ou l'adresse "
        "d'une page."
    ),
    "src.url_timeout": "{url} n'a pas répondu en {seconds} s",
    "src.url_failed": "Impossible de récupérer {url} : {error}",
    "src.url_status": "{url} a répondu HTTP {status} : vérifiez l'adresse",
    "src.nothing_to_preview": "{url} n'a aucun texte à prévisualiser",
    "src.cp1252": (
        "n'est pas de l'UTF-8 valide (octet 0x{byte} à la position {offset}) : lu en Windows-1252 "
        "(cp1252) ; enregistrez-le en UTF-8 si les accents s'affichent mal"
    ),
    "src.link_outside": "est un lien symbolique vers {target}, hors du dossier : non suivi, ignoré",
    "src.not_a_document_skipped": "n'est pas un fichier .md, .markdown, .html ou .htm, ignoré",
    "src.unreadable": "illisible ({error}), ignoré",
    "src.over_limit": "dépasse la taille maximale, ignoré",
    "src.binary": "est un fichier binaire (il contient des octets NUL), pas du texte : ignoré",
    "src.empty": "est vide, ignoré",
    "src.front_matter": (
        "{error} : non indexé, car ses groupes d'accès sont illisibles. Corrigez le front matter (une "
        "valeur contenant \": \" doit être entre guillemets, par ex. title: \"Incident: rotation\")"
    ),
    "src.not_indexed": "{error} : non indexé",
    "src.html_failed": "son HTML n'a pas pu être converti en Markdown ({error}), ignoré",
    "src.no_common_group": (
        "son front matter autorise {declared} et le dossier {folder} : aucun groupe en commun, seuls les "
        "éditeurs le verront donc"
    ),
    "src.folder_link_inside": "est un lien vers le dossier {target}, déjà dans la source : non suivi",
    "src.folder_link_outside": "est un lien symbolique vers le dossier {target}, hors de la source : non suivi, ignoré",
    "src.no_such_folder": "Dossier introuvable : {path}",
    "src.empty_folder": (
        "{path} ne contient aucun fichier .md, .markdown, .html ou .htm (les dossiers cachés sont "
        "ignorés)"
    ),
    "src.mb_not_number": "{name}={value} n'est pas un nombre de mégaoctets, par ex. 10",
    "src.mb_not_positive": "{name} doit être un nombre positif de mégaoctets, reçu : {value}",
    "src.too_big": (
        "pèse {size} Mo, au-delà de la limite de {limit} Mo par document : ignoré. Découpez-le, ou "
        "relevez la limite ({name} ou --max-doc-mb)"
    ),
    "src.looks_binary": (
        "ressemble à des données binaires lues comme du texte ({pct} % de caractères de contrôle ou "
        "illisibles) : ignoré ; convertissez-le d'abord en format texte"
    ),
    "src.encoded": (
        "contient surtout des données encodées ({pct} % de son texte sont de longues suites de type "
        "base64 sans espaces, comme un fichier incorporé) : ignoré ; retirez les données incorporées ou "
        "faites-y un lien"
    ),
    "src.access_not_list": (
        "l'access de son front matter est {kind} {value}, pas une liste de groupes (écrivez par ex. "
        "access: [staff], ou access: [] pour les éditeurs seuls)"
    ),
    "src.access_bad_group": (
        "l'access de son front matter contient {value}, qui n'est pas un nom de groupe (écrivez par ex. "
        "access: [staff, ops])"
    ),
    "src.redirect": "n'a pas de texte, seulement une redirection vers {target} : ignoré",
    "src.links": "n'a pas de texte, seulement {n} liens : ignoré",
    "src.link_to": "n'a pas de texte, seulement un lien vers {target} : ignoré",
    "src.link": "n'a pas de texte, seulement un lien : ignoré",
    "src.no_text": "n'a pas de texte (seulement du front matter ou du balisage), ignoré",
    "src.yaml_line": " (ligne {n})",
    "src.yaml": "le front matter n'est pas du YAML valide{line}",
    "src.html_too_deep": "le HTML est trop imbriqué pour être converti (des milliers de niveaux)",
    # rag/sources/wordpress.py
    "wp.credentials_hint": "(--user et --app-password, ou RAG_WP_USER et RAG_WP_APP_PASSWORD)",
    "wp.empty_url": "L'adresse du site WordPress est vide : indiquez-en une comme https://blog.example.com",
    "wp.scheme": (
        "{url} : un site WordPress se lit en http:// ou https:// uniquement, pas en {scheme}:. Indiquez "
        "une adresse comme https://blog.example.com"
    ),
    "wp.not_address_why": "{url} n'est pas une adresse web ({error}) : indiquez-en une comme https://blog.example.com",
    "wp.not_address": "{url} n'est pas une adresse web : indiquez-en une comme https://blog.example.com",
    "wp.bad_types": "--types {value} n'est pas un type de contenu : utilisez posts, pages, ou les deux (posts,pages)",
    "wp.empty_types": "--types est vide : utilisez posts, pages, ou les deux (posts,pages)",
    "wp.bad_date": "--modified-after {value} n'est pas une date ISO : utilisez 2024-05-31 ou 2024-05-31T12:00:00",
    "wp.password_without_user": "Un mot de passe d'application a été donné sans nom d'utilisateur {hint}",
    "wp.repeated_page": "la page {page} des {kind} répète des éléments déjà lus : lecture arrêtée là",
    "wp.page_limit": "arrêt après {page} pages de {kind} (la limite)",
    "wp.not_a_post_item": "{url} (un élément qui n'est pas un article)",
    "wp.not_a_post": "un objet article était attendu, reçu : {kind}",
    "wp.no_link": "n'a pas de lien : il ne peut pas être cité, ignoré",
    "wp.no_content": "n'a pas de texte content.rendered, ignoré",
    "wp.protected": "est protégé par mot de passe : l'API ne fournit pas son texte, ignoré",
    "wp.bad_title": "a un titre qui n'est pas du texte ({kind}), ignoré",
    "wp.no_text": (
        "n'a plus de texte une fois son HTML converti (seulement des images ou des contenus intégrés ?), "
        "ignoré"
    ),
    "wp.no_answer": "pas de réponse en {seconds} s",
    "wp.connection_failed": "échec de connexion ({error})",
    "wp.page_failed": (
        "La page {page} des {kind} de {url} a échoué après {n} tentatives : {why}. Les {kind} des pages "
        "précédentes ont été lus ; réessayez plus tard."
    ),
    "wp.what_page": "page {page} des {kind}",
    "wp.what_kind": "les {kind}",
    "wp.not_a_list": (
        "{url} a répondu à la page {page} des {kind} par un JSON {type}, pas une liste : l'adresse "
        "est-elle bien la racine du site ?"
    ),
    "wp.unreachable": (
        "Impossible de joindre {url} : {why} après {n} tentatives. Vérifiez l'adresse et que le site est "
        "en ligne."
    ),
    "wp.first_page_failed": (
        "La page 1 des {kind} de {url} a échoué après {n} tentatives : {why}. Le site est peut-être "
        "surchargé : réessayez plus tard."
    ),
    "wp.refused": (
        "{url} a refusé les identifiants de l'utilisateur {user} ({detail}). Vérifiez le nom "
        "d'utilisateur et utilisez un mot de passe d'application (Comptes > Profil > Mots de passe "
        "d'application), pas le mot de passe de connexion ; les articles privés demandent aussi un "
        "utilisateur autorisé à les lire."
    ),
    "wp.auth_needed": (
        "{url} demande une authentification pour lire ses articles ({detail}) : indiquez un nom "
        "d'utilisateur et un mot de passe d'application {hint}."
    ),
    "wp.html": (
        "{where} a répondu du HTML au lieu de JSON (HTTP {status}) : l'API REST est peut-être bloquée "
        "par une extension de sécurité ou de cache, ou l'adresse mène à une page de connexion."
    ),
    "wp.invalid_json": (
        "{where} a répondu un JSON invalide (HTTP {status}, commence par {start}) : une extension ou un "
        "avertissement PHP corrompt peut-être la sortie de l'API."
    ),
    "wp.empty_body": "{where} a répondu un corps vide (HTTP {status}) : réessayez plus tard.",
    "wp.check_types": "Vérifiez --types : posts, pages, ou la base REST d'un type de contenu personnalisé.",
    "wp.not_found": "{where} a répondu 404 ({detail}) : cette route manque ou est désactivée sur ce site.{hint}",
    "wp.request_refused": "WordPress a refusé la requête pour {what} de {url} : {detail}",
    "wp.not_wordpress": (
        "{url} ne ressemble pas à un site WordPress : {url}/wp-json/ et {url}/index.php/wp-json/ n'ont "
        "répondu aucun JSON, ?rest_route= non plus. Indiquez l'adresse du site WordPress lui-même (par "
        "ex. https://blog.example.com), ou vérifiez que son API REST est activée."
    ),
    # rag/chunking: strategies and their settings
    "chunk.positive": "{strategy} : {name} doit être un nombre entier de caractères supérieur à 0, reçu : {value}",
    "chunk.overlap_number": "{strategy} : overlap doit être un nombre entier de caractères, 0 ou plus, reçu : {value}",
    "chunk.overlap_size": (
        "{strategy} : overlap ({overlap}) doit être inférieur à {name} ({size}) ; 10 à 20 % de {name} "
        "est l'usage"
    ),
    "chunk.unknown": "stratégie de découpage inconnue {name} ; choisissez parmi : {names}",
    "chunk.no_setting": "la stratégie {name} n'a pas de réglage {unknown} ; ses réglages sont : {accepted}",
    "chunk.min_max": "{strategy} : min_size ({min}) ne doit pas dépasser max_size ({max})",
    "chunk.unknown_or_all": "stratégie inconnue {name} ; choisissez parmi : {names}, ou {all}",
    # rag/embeddings and the checks of vectors
    "vec.empty": "un vecteur vide",
    "vec.nan": "des valeurs NaN ou infinies",
    "vec.zero": "un vecteur entièrement nul",
    "vec.float32": (
        "des valeurs trop grandes ou trop petites pour des flottants 32 bits (elles seraient stockées "
        "comme infinies ou NaN)"
    ),
    "vec.input": "entrée n° {i}",
    "vec.query": "la question",
    "vec.the_collection": "la collection",
    "vec.batch_count": "le modèle d'embeddings a renvoyé {n} vecteurs pour {count} morceaux",
    "vec.batch_dimension": "le modèle d'embeddings a renvoyé {n} dimensions pour {label}, la collection en a {dimension}",
    "vec.batch_problem": "le modèle d'embeddings a renvoyé {problem} pour {label} : non stocké",
    "vec.unread": "{n} des {expected} points échantillonnés n'ont pas pu être relus",
    "vec.point_dimension": "le point {id} ({url}) a {n} dimensions, {dimension} attendues",
    "vec.point_problem": (
        "le point {id} ({url}) a un vecteur inutilisable ({problem}) ; la prochaine indexation "
        "revectorise ce document"
    ),
    "emb.count": (
        "Le modèle d'embeddings {model} a renvoyé {n} vecteurs pour {count} textes ({first} .. {last}) : "
        "le serveur se comporte mal ; redémarrez-le ou essayez un autre modèle."
    ),
    "emb.empty": "Le modèle d'embeddings {model} a renvoyé un vecteur vide pour {label}.",
    "emb.nan": (
        "Le modèle d'embeddings {model} a renvoyé des valeurs NaN ou infinies pour {label} : le modèle "
        "est défectueux ou mal configuré ; rechargez-le ou prenez un autre modèle d'embeddings."
    ),
    "emb.zero": (
        "Le modèle d'embeddings {model} a renvoyé un vecteur entièrement nul pour {label} : vérifiez que "
        "le modèle chargé est bien un modèle d'embeddings et que le serveur répond en flottants ; "
        "rechargez le modèle ou prenez-en un autre."
    ),
    "emb.problem": (
        "Le modèle d'embeddings {model} a renvoyé {problem} pour {label} : le modèle ou le serveur est "
        "défectueux ou mal configuré ; rechargez-le ou prenez un autre modèle d'embeddings."
    ),
    "emb.other_model": (
        "La collection a été construite avec le modèle d'embeddings {expected} ({expected_dim} "
        "dimensions), mais le modèle actuel est {model} ({size} dimensions, mesurées sur {label}). Les "
        "vecteurs de deux modèles ne se comparent pas : reprenez le modèle d'origine (RAG_EMBED_MODEL), "
        "indexez dans une nouvelle collection (--collection NAME), ou reconstruisez celle-ci avec "
        "--full."
    ),
    "emb.dimension": (
        "Le modèle d'embeddings {model} a renvoyé {size} dimensions pour {label}, mais la collection en "
        "attend {expected} : elle a été construite avec un autre modèle ou réglage ; reprenez ce modèle, "
        "ou réindexez dans une nouvelle collection."
    ),
    "emb.size_changed": (
        "Le modèle d'embeddings {model} a changé de taille de vecteur, de {old} à {size} (à {label}) : "
        "un autre modèle a sans doute été chargé sur le serveur entre-temps ; rechargez le même modèle "
        "et relancez."
    ),
    "emb.describe_unknown": "le modèle d'embeddings du serveur {url} (pas encore joignable)",
    "emb.dims": ", {n} dimensions",
    "emb.describe": "le modèle {model} de {server} ({url}){dims}",
    "emb.timeout": (
        "Le serveur d'embeddings {url} n'a pas répondu en {seconds} s pour le modèle {model} ({where}) : "
        "il charge peut-être le modèle, ou il est surchargé ; réessayez, ou augmentez RAG_TIMEOUT."
    ),
    "emb.request_failed": "La requête au serveur d'embeddings {url} a échoué pour le modèle {model} ({where}) : {error}",
    "emb.too_long": (
        "{where} est trop long pour le modèle d'embeddings {model} (le serveur dit : {said}). Prenez une "
        "stratégie à plus petits morceaux, ou chargez le modèle avec un contexte plus long."
    ),
    "emb.not_a_list": (
        "Le serveur d'embeddings {url} a envoyé une réponse qui n'est pas une liste d'embeddings pour le "
        "modèle {model} ({where}) : {error}. RAG_EMBED_URL désigne-t-elle bien un serveur d'embeddings ?"
    ),
    "emb.indices": (
        "Le modèle d'embeddings {model} a répondu les indices {indices} pour {count} textes ({where}) : "
        "impossible d'associer les vecteurs à leurs textes ; redémarrez le serveur."
    ),
    "emb.said": " (le serveur dit : {message})",
    "emb.not_loaded": (
        "Le serveur d'embeddings {url} n'a aucun modèle chargé pour {model}{said}. Chargez un modèle "
        "d'embeddings dans LM Studio (par ex. `lms load {id}`), ou définissez RAG_EMBED_MODEL=embedded "
        "pour utiliser le modèle intégré."
    ),
    "emb.cannot_embed": (
        "Le serveur d'embeddings {url} ne peut pas vectoriser avec le modèle {model}{said}. {available} "
        "Donnez à RAG_EMBED_MODEL l'un d'eux, ou retirez-la pour prendre automatiquement le modèle "
        "d'embeddings du serveur."
    ),
    "emb.refused": (
        "Le serveur d'embeddings {url} a refusé la requête (HTTP {status}){said} : vérifiez la clé "
        "d'API."
    ),
    "emb.status": "Le serveur d'embeddings {url} a répondu HTTP {status} pour le modèle {model} ({where}){said}.",
    "emb.unlisted": "Impossible de lister ses modèles.",
    "emb.none_offered": "Il ne propose aucun modèle d'embeddings.",
    "emb.available": "Modèles d'embeddings disponibles : {names}.",
    "emb.server_down": (
        "Aucun serveur d'embeddings ne répond sur {url} : lancez le serveur de LM Studio (onglet "
        "Developer, ou `lms server start`) et chargez un modèle d'embeddings, ou définissez "
        "RAG_EMBED_MODEL=embedded pour utiliser le modèle multilingual-e5-small intégré."
    ),
    "emb.busy": "Il est peut-être occupé à charger un modèle ; réessayez.",
    "emb.set_key": "Indiquez la bonne clé d'API.",
    "emb.no_model": (
        "{server} sur {url} ne propose aucun modèle d'embeddings (ses modèles : {others}). "
        "Téléchargez-en un et chargez-le (par ex. text-embedding-qwen3-embedding-0.6b ou "
        "text-embedding-nomic-embed-text-v1.5), nommez-le dans RAG_EMBED_MODEL, ou définissez "
        "RAG_EMBED_MODEL=embedded."
    ),
    "emb.using_setting": "RAG_EMBED_MODEL={choice} : on utilise {what}.",
    "emb.setting_failed": "RAG_EMBED_MODEL={choice} a besoin du serveur d'embeddings {url}, qui a échoué : {error}",
    "emb.no_such_model": (
        "RAG_EMBED_MODEL={choice} : LM Studio sur {url} n'a pas ce modèle. Ses modèles d'embeddings : "
        "{names}. Donnez à RAG_EMBED_MODEL l'un d'eux, ou retirez-la."
    ),
    "emb.using_fallback": "Aucun serveur d'embeddings sur {url} : on utilise {what}.",
    "emb.using_fallback_none": "{server} sur {url} a répondu mais ne propose aucun modèle d'embeddings : on utilise {what}.",
    "emb.not_loaded_yet": " (pas encore chargé : le serveur le charge à la première utilisation)",
    "emb.using_server": "{server} sur {url} a répondu : utilisation de {model}{state}.",
    "emb.built_named": "La collection {name} a été construite",
    "emb.built": "Cette collection a été construite",
    "emb.built_with": "{built} avec {model} : on utilise {what}.",
    "emb.threads_one": "{n} thread",
    "emb.threads_other": "{n} threads",
    "emb.default_threads": "threads par défaut",
    "emb.embedded": "le multilingual-e5-small intégré ({n} dimensions, dans ce processus, {threads})",
    # rag/index: the store, its collections, migration
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
    "store.no_threshold": "La collection {name} n'existe pas : impossible d'enregistrer un seuil.",
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
    "store.bad_name": (
        "Le stockage intégré n'accepte pas le nom de collection {name} : utilisez de 1 à 64 lettres, "
        "chiffres, '-' ou '_', en commençant par une lettre ou un chiffre."
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
    # rag/answer: retrieval, reranking, the prompt's budget, the model list
    "ask.unknown_mode": "Mode de recherche inconnu {mode} : utilisez l'un de {modes}.",
    "ask.no_sparse": (
        "La collection {name} n'a pas de vecteurs creux BM25 : utilisez la recherche dense, ou "
        "reconstruisez-la avec `rag ingest SOURCE --full`."
    ),
    "ask.empty": "La question est vide : tapez une question.",
    "ask.too_long": (
        "La question fait {n} caractères ; la limite est de {limit}. Posez une question plus courte : "
        "gardez seulement les lignes utiles d'un journal ou d'un message d'erreur collé."
    ),
    "ask.top_k": "top_k doit valoir au moins 1 (reçu : {value}).",
    "ask.dimension": (
        "Le modèle d'embeddings {model} a renvoyé {n} dimensions mais la collection {name} en contient "
        "{dimension} : indexez dans une nouvelle collection (--collection NAME)."
    ),
    "ask.no_context_length": (
        "Le serveur n'indique pas la longueur de contexte du modèle : le prompt (environ {n} tokens) n'a "
        "donc pas pu être comparé à celle-ci ; si le serveur tronque les longs prompts, certains "
        "extraits peuvent être ignorés."
    ),
    "ask.best_too_big": (
        "Même le meilleur passage [{n}] ne tient pas : le prompt avec lui seul fait environ {tokens} "
        "tokens, et le modèle {model} est chargé avec une longueur de contexte de {context} tokens, dont "
        "{kept} réservés à la réponse. Chargez le modèle avec un contexte plus grand (`lms load {id} "
        "--context-length 8192`)."
    ),
    "ask.cut_off": "La réponse a été interrompue : elle n'est donc pas présentée comme une réponse.",
    "rerank.unreachable": (
        "Le reranker {url} n'a pas répondu ({error}). Lancez-le, ou retirez RAG_RERANK_URL pour chercher "
        "sans reclassement."
    ),
    "rerank.status": "Le reranker {url} a répondu {status} : {detail}. Vérifiez RAG_RERANK_URL et RAG_RERANK_MODEL.",
    "rerank.unreadable": (
        "Le reranker {url} a répondu autre chose que {{\"results\": [{{\"index\": ..., \"relevance_score\": "
        "...}}]}} : est-ce bien un serveur /v1/rerank ?"
    ),
    "models.status": "Le serveur {url} a répondu {status} à /models : {detail}.",
    "models.unreadable": "Le serveur {url} a renvoyé une liste de modèles que ce programme ne sait pas lire.",
    "models.nothing": "Rien ne répond sur {url} ({error}).",
    "models.timeout": "Le serveur {url} a accepté la connexion mais n'a pas listé ses modèles à temps.",
    "models.unreachable": "Impossible de joindre le serveur {url} ({error}).",
    "models.refused": "Le serveur {url} a refusé la clé d'API (HTTP {status}).",
    "prompt.unreadable": (
        "Le fichier de prompt {path} est illisible ({error}). Corrigez RAG_PROMPT_FILE ou retirez-la "
        "pour utiliser le prompt intégré."
    ),
    # rag/config.py, rag/access.py, rag/enrich
    "config.empty_url": "L'URL du serveur est vide : indiquez-en une comme http://localhost:1234/v1",
    "config.scheme": "L'URL du serveur {url} doit commencer par http:// ou https://",
    "config.not_number": "{name}={value} n'est pas un nombre (par ex. 0.82)",
    "config.not_whole": "{name}={value} n'est pas un nombre entier",
    "access.groups_map": (
        "Dans {origin}, chaque utilisateur doit être associé à une liste de groupes, par ex. "
        "{{\"alice@example.com\": [\"public\", \"staff\"]}}"
    ),
    "access.groups_list": (
        "Dans {origin}, les groupes de {user} doivent être une liste de noms, par ex. [\"public\", "
        "\"staff\"]"
    ),
    "access.unreadable": "Impossible de lire le fichier d'accès {path} (RAG_ACCESS_FILE) : {error}",
    "access.invalid": "Le fichier d'accès {path} n'est pas du {kind} valide : {error}",
    "access.the_file": "le fichier d'accès {path}",
    "access.bad_json": "{name} n'est pas du JSON valide ({error}) : écrivez-la comme {example}",
    "access.roles_map": (
        "Dans {origin}, chaque utilisateur doit être associé à un rôle, par ex. {{\"alice@example.com\": "
        "\"editor\"}}"
    ),
    "access.role": "Dans {origin}, le rôle de {user} doit être \"reader\" ou \"editor\", pas {role}",
    "access.roles_table": "la table [roles] de {path}",
    "access.same_passwords": (
        "RAG_EDITOR_PASSWORD et RAG_APP_PASSWORD sont identiques : les lecteurs seraient éditeurs. "
        "Donnez aux éditeurs leur propre mot de passe."
    ),
    "enrich.unknown": "enrichissement inconnu {mode} ; choisissez parmi : {modes}",
    "enrich.needs_model": (
        "L'enrichissement {mode} a besoin du modèle de chat pour écrire le contexte de chaque morceau, "
        "et il ne le peut pas : {error} Chargez un modèle de chat dans LM Studio, ou indexez avec "
        "--enrich lead (sans modèle) ou none."
    ),
    "enrich.the_collection": "la collection",
    "enrich.other": (
        "{name} a été construite avec l'enrichissement {built} ; cette indexation demande {requested}. "
        "Reconstruisez-la avec --full, ou indexez dans une autre collection (--collection NAME)."
    ),
    "enrich.chunk_failed": "le modèle de chat n'a pas pu écrire le contexte du morceau {index} : {error}",
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
    # the command line's help (argparse)
    "help.ask": "répondre à une question d'après les articles indexés, en citant ses sources",
    "help.ask.description": (
        "Cherche les passages les plus proches de QUESTION, refuse si aucun n'atteint le seuil de score, "
        "sinon demande au modèle de chat (LM Studio) de répondre d'après eux seuls, puis liste les "
        "sources citées. Sans --json, la réponse s'affiche au fil de l'écriture."
    ),
    "help.ask.question": "la question, entre guillemets",
    "help.ask.collection": "collection où chercher (par défaut : RAG_COLLECTION ou 'blog')",
    "help.ask.json": "afficher le résultat en JSON uniquement",
    "help.ask.top_k": "passages à retenir (par défaut : RAG_TOP_K ou 6)",
    "help.ask.threshold": (
        "score dense minimal pour accepter un passage (par défaut : RAG_THRESHOLD, sinon la valeur "
        "calibrée de la collection, sinon celle du modèle d'embeddings)"
    ),
    "help.ask.min_coverage": (
        "part (0-1) des mots de la question, pondérés par leur rareté, que les articles lisibles doivent "
        "contenir (par défaut : RAG_MIN_COVERAGE, sinon la valeur calibrée de la collection, sinon 0.6) "
        "; 0 désactive ce contrôle, le score seul décide"
    ),
    "help.ask.mode": "recherche : dense, hybrid (dense + BM25), ou auto (hybrid quand la collection a BM25)",
    "help.ask.groups": (
        "répondre comme un lecteur de ces groupes d'accès, par ex. public (par défaut : tous les "
        "documents ; la ligne de commande est celle de l'administrateur)"
    ),
    "help.ask.no_llm": "recherche seule : lister les passages et la décision du seuil, sans le modèle de chat",
    "help.eval": "rejouer un jeu de questions : hit@k, MRR, calibration du seuil, contrôle des réponses",
    "help.eval.description": (
        "Rejoue un jeu de questions (JSON Lines, ou CSV avec les mêmes colonnes) sur une collection. "
        "Mesure si l'article attendu est retrouvé (hit@1, hit@3, hit@k, MRR) et si la réponse attendue "
        "figure dans les passages, suggère le seuil de score qui sépare le mieux les questions du corpus "
        "des questions hors sujet et, avec le modèle de chat, contrôle les réponses. Écrit results.json "
        "et results.csv, et garde l'évaluation dans $RAG_DATA_DIR/evals pour la comparer plus tard."
    ),
    "help.eval.questions": "jeu de questions (.jsonl ou .csv)",
    "help.eval.collection": "collection à mesurer (par défaut : RAG_COLLECTION, sinon blog)",
    "help.eval.no_llm": "recherche seule : ne pas appeler le modèle de chat",
    "help.eval.out": "où écrire les résultats (par défaut : un nouveau dossier dans $RAG_DATA_DIR/evals)",
    "help.eval.compare": "rejouer aussi les questions sur COLLECTION2 et comparer",
    "help.eval.compare_run": (
        "comparer avec une évaluation précédente : son dossier ou son results.json, ou 'latest' pour la "
        "précédente de la même collection"
    ),
    "help.eval.save_threshold": (
        "enregistrer dans la collection les réglages suggérés du filtre de réponse (plancher de cosinus, "
        "couverture des termes), avec le nom du jeu de questions et la date, pour que `rag ask` les "
        "utilise"
    ),
    "help.eval.mode": "mode de recherche",
    "help.eval.top_k": "passages retenus par question (par défaut : RAG_TOP_K)",
    "help.eval.json": "afficher le résumé (et la comparaison) en JSON",
    "help.eval.groups": "chercher comme un lecteur de ces groupes d'accès (par défaut : tous les documents)",
    "help.fetch": "télécharger chaque article d'un site WordPress en fichiers Markdown",
    "help.fetch.description": (
        "Lit chaque article de SITE par l'API REST de WordPress et écrit un fichier Markdown par article "
        "(nommé d'après son slug) avec un front matter : title, url, modified, access. Une nouvelle "
        "exécution réécrit les mêmes fichiers. Un article sans texte (une simple redirection ou un lien) "
        "est ignoré avec une note. Code de sortie 1 si un article n'a pas pu être converti."
    ),
    "help.fetch.site": "l'adresse du site WordPress, par ex. https://blog.example.com",
    "help.fetch.out": "dossier où écrire les fichiers .md (créé au besoin)",
    "help.fetch.user": "nom d'utilisateur WordPress, pour inclure les articles privés (par défaut : RAG_WP_USER)",
    "help.fetch.app_password": (
        "un mot de passe d'application de cet utilisateur (par défaut : RAG_WP_APP_PASSWORD ; préférez "
        "la variable, un argument de ligne de commande est visible des autres utilisateurs de la "
        "machine)"
    ),
    "help.fetch.modified_after": "seulement les articles modifiés après cette date ISO",
    "help.fetch.private_group": "groupe d'accès donné aux articles privés (par défaut : private)",
    "help.fetch.timeout": "secondes d'attente pour chaque requête (par défaut : 30)",
    "help.fetch.max_doc_mb": "ignorer un article plus gros que cela [${env} ou {mb}]",
    "help.fetch.types": "types de contenu à lire, séparés par des virgules : {types} (par défaut : posts)",
    "help.fetch.prune": (
        "supprimer les fichiers que cette commande a écrits pour des articles que le site ne liste plus "
        "(seulement après une lecture complète du site ; jamais d'autres fichiers)"
    ),
    "help.ingest": "indexer un site WordPress ou un dossier de fichiers .md/.html",
    "help.ingest.description": (
        "Lit SOURCE (l'adresse d'un site WordPress ou un dossier local de fichiers "
        ".md/.markdown/.html/.htm), la découpe, la vectorise et la stocke dans une collection Qdrant. "
        "Relancer ne risque rien et ne revectorise que les documents modifiés ; une indexation "
        "interrompue reprend là où elle s'est arrêtée. Un document sans texte (une simple redirection ou "
        "un lien) est ignoré avec une note, ce n'est pas un échec. Code de sortie : 0 tout indexé, 1 des "
        "documents en échec (les autres sont indexés), 2 erreur fatale."
    ),
    "help.ingest.source": "adresse d'un site WordPress ou dossier local (ou fichier)",
    "help.ingest.collection": "nom de la collection [$RAG_COLLECTION ou blog]",
    "help.ingest.strategy": "stratégie de découpage : {names} [celle de la collection, sinon {default}]",
    "help.ingest.enrich": (
        "contexte ajouté devant chaque morceau avant la vectorisation : none ; lead (le fil des titres "
        "et le chapeau de l'article, sans modèle) ; llm (une ou deux phrases du modèle de chat) ; "
        "questions (les questions auxquelles il répond et des mots-clés, du modèle de chat). Les "
        "contextes du modèle sont mis en cache dans $RAG_DATA_DIR/cache [celui de la collection, sinon "
        "none]"
    ),
    "help.ingest.full": "reconstruire la collection de zéro (c'est aussi la façon de changer son modèle d'embeddings)",
    "help.ingest.prune": (
        "supprimer les points des documents qui ne sont plus dans la source (seulement après une lecture "
        "complète)"
    ),
    "help.ingest.access": (
        "groupes d'accès des documents d'un dossier [public] ; le champ access du front matter d'un fichier ne "
        "peut que les restreindre (le plus strict l'emporte), access: [] veut dire éditeurs seuls"
    ),
    "help.ingest.max_doc_mb": "ignorer un fichier ou un article plus gros que cela [${env} ou {mb}]",
    "help.ingest.user": "utilisateur WordPress, pour inclure les articles privés [$RAG_WP_USER]",
    "help.ingest.app_password": "mot de passe d'application WordPress [$RAG_WP_APP_PASSWORD]",
    "help.ingest.types": "types de contenu d'un site WordPress, séparés par des virgules : {types} [posts]",
    "help.ingest.json": "afficher le résumé en JSON sur la sortie standard",
    "help.ingest.chunk_size": "recursive, markdown : nombre maximal de caractères d'un morceau",
    "help.ingest.overlap": "recursive, sections, markdown : caractères répétés entre deux morceaux",
    "help.ingest.min_size": "sections_min_max : une section plus courte rejoint la suivante",
    "help.ingest.max_size": "sections, sections_min_max : morceau le plus long avant qu'une section soit coupée",
    "help.migrate": (
        "passer un ancien stockage intégré à Qdrant Edge, ou copier des collections vers un serveur "
        "Qdrant"
    ),
    "help.migrate.description": (
        "Sans --to : passe un stockage intégré écrit par une version antérieure (le mode local de "
        "qdrant-client) à Qdrant Edge, en gardant les anciens fichiers dans un dossier de sauvegarde "
        "(cela se fait aussi tout seul à la première ouverture du stockage). Avec --to : copie les "
        "collections telles qu'elles sont stockées, sans revectoriser, du stockage intégré "
        "($RAG_DATA_DIR/qdrant) vers un serveur Qdrant ; définissez ensuite RAG_QDRANT_URL (et "
        "RAG_QDRANT_API_KEY) pour utiliser le serveur. Arrêtez d'abord l'application : le stockage "
        "intégré n'admet qu'un processus à la fois."
    ),
    "help.migrate.to": "destination : l'URL d'un serveur Qdrant (http://localhost:6333) ou un dossier de données",
    "help.migrate.from": (
        "source : l'URL d'un serveur Qdrant ou un dossier de données [le stockage intégré de "
        "$RAG_DATA_DIR]"
    ),
    "help.migrate.collection": "collection à copier ; à répéter pour plusieurs [toutes les collections de la source]",
    "help.migrate.api_key": "clé d'API d'un serveur donné par son URL [$RAG_QDRANT_API_KEY]",
    "help.migrate.replace": "écraser une collection qui existe déjà à la destination",
    "help.migrate.batch": "points par requête [256]",
    "help.preview": "montrer où chaque stratégie de découpage coupe un document (sans indexer)",
    "help.preview.description": (
        "Découpe un document et montre les coupures : nombre de morceaux, tailles, avertissements "
        "(code_block_split, table_split, no_heading_context, oversized, tiny) et les positions de chaque "
        "morceau. FILE_OR_URL est un fichier .md/.markdown/.html/.htm ou l'adresse d'une page web."
    ),
    "help.preview.strategy": "l'une de {names}, ou {all} (par défaut : {all})",
    "help.preview.json": "afficher le document et ses morceaux en JSON",
    "help.preview.chunk_size": "recursive, markdown : nombre maximal de caractères d'un morceau",
    "help.preview.overlap": "recursive, sections, markdown : caractères répétés entre deux morceaux",
    "help.preview.min_size": "sections_min_max : une section plus courte rejoint la suivante",
    "help.preview.max_size": "sections, sections_min_max : morceau le plus long avant qu'une section soit coupée",
    "help.preview.timeout": "secondes d'attente pour une URL (par défaut : 30)",
    "help.preview.max_doc_mb": "refuser un document plus gros que cela [${env} ou {mb}]",
    "help.preview.curl": (
        "afficher une commande curl qui vectorise les morceaux en une requête, pour essayer un serveur "
        "d'embeddings à la main : lmstudio (par défaut ; RAG_EMBED_URL) ou ollama (son /api/embed). "
        "Morceaux de --strategy, sinon de {default}"
    ),
    "help.preview.model": (
        "avec --curl : l'identifiant du modèle d'embeddings [RAG_EMBED_MODEL quand elle nomme un modèle "
        "de serveur]"
    ),
    "help.status": "montrer LM Studio, ses modèles, le stockage Qdrant et les collections",
    "help.status.description": (
        "Indique si LM Studio répond (et ses modèles : type, chargé ou non, longueur de contexte), le "
        "réglage des embeddings, le stockage Qdrant (dossier intégré ou URL du serveur) et chaque "
        "collection avec son modèle, sa dimension, sa stratégie, ses points et son seuil."
    ),
    "help.status.json": "afficher l'état en JSON",
    "help.ingest.sizes": "réglages du découpage",
    "help.ingest.sizes_description": (
        "par-dessus les valeurs par défaut de la stratégie ; une collection garde les réglages avec "
        "lesquels elle a été construite, d'autres réglages demandent donc --full ou une autre "
        "--collection"
    ),
    "cli.usage": "utilisation : ",
    "cli.positionals": "arguments positionnels",
    "cli.options": "options",
    "cli.help": "afficher cette aide et quitter",
    "cli.section": "{title} ",
    # argparse's own sentences (rag/cli/argparse_words.py)
    "argparse.error": "{prog} : erreur : {message}",
    "argparse.required": "ces arguments sont obligatoires : {names}",
    "argparse.unrecognized": "arguments non reconnus : {names}",
    "argparse.choice": "argument {name} : choix invalide : {value} (choisissez parmi {choices})",
    "argparse.value": "argument {name} : {value} n'est pas un {type} valide",
    "argparse.type_int": "nombre entier",
    "argparse.type_float": "nombre",
    "argparse.one": "argument {name} : une valeur est attendue",
    "argparse.at_least_one": "argument {name} : au moins une valeur est attendue",
    "argparse.at_most_one": "argument {name} : au plus une valeur est attendue",
    "argparse.ambiguous": "option ambiguë : {option} peut désigner {matches}",
    "src.pasted_title": "Texte collé",
}
