"""L'aide de la ligne de commande (--help) et les phrases d'argparse."""

TEXT: dict[str, str] = {
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
    "help.ingest.replace": ("laisser un document remplacer celui d'une autre source de même identité ou de même adresse "
                            "(sans cette option, il n'est pas indexé et la commande sort avec le code 1)"),
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
    "help.ingest.chunk_size": "recursive, markdown : nombre maximal de caractères (ou de jetons, --unit tokens) d'un morceau",
    "help.ingest.overlap": "recursive, sections, markdown : caractères (ou jetons) répétés entre deux morceaux",
    "help.ingest.min_size": "sections_min_max : une section plus courte rejoint la suivante",
    "help.unit": (
        "ce que comptent les tailles : chars (caractères, par défaut) ou tokens (le compte du modèle "
        "d'embedding lui-même ; celui d'un modèle de serveur est estimé à {chars} caractères par jeton)"
    ),
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
    "help.preview.chunk_size": "recursive, markdown : nombre maximal de caractères (ou de jetons, --unit tokens) d'un morceau",
    "help.preview.overlap": "recursive, sections, markdown : caractères (ou jetons) répétés entre deux morceaux",
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
