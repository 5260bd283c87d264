"""Le découpage et les embeddings : stratégies, serveurs, modèles et vérification des vecteurs."""

TEXT: dict[str, str] = {
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
    "chunk.unit": "{strategy} : l'unité des tailles est l'une de {units}, reçu : {value}",
    "chunk.window_cut": (
        "{url} : {chunks} morceau(x) au-delà de la fenêtre de {n} jetons (estimés) du modèle d'embedding "
        "coupé(s) en {pieces} morceaux avant l'indexation"
    ),
    "chunk.window_over": (
        "{url} : {chunks} morceau(x) encore au-delà de la fenêtre de {n} jetons (estimés) du modèle d'embedding, "
        "leur en-tête de contexte en prenant à lui seul la plus grande part : le serveur risque d'en couper la fin"
    ),
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
}
