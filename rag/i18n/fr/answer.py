"""La réponse : serveur de chat, recherche, reranking, budget du prompt ; réglages, accès, enrichissement."""

TEXT: dict[str, str] = {
    # rag/servers/chat.py: the chat server
    "llm.unreachable": (
        "Le serveur de chat ne répond pas sur {url} ({error}). Lancez le serveur local de LM Studio "
        "(onglet Developer, ou `lms server start`) ou corrigez l'adresse dans RAG_LLM_URL."
    ),
    "llm.in_container": (
        "Ce programme tourne dans un conteneur, où localhost désigne le conteneur lui-même : utilisez "
        "http://host.docker.internal:1234/v1 pour joindre LM Studio sur la machine hôte."
    ),
    "llm.timeout": (
        "Le serveur de chat {url} a mis plus de {time} à {what}. Le modèle est peut-être encore en "
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
    "llm.runaway_size": (
        "Le serveur de chat {url} ({model}) a envoyé plus de {limit} caractères pour une réponse limitée à "
        "{max_tokens} tokens : il ignore max_tokens, la réponse a donc été arrêtée. Vérifiez les réglages du serveur."
    ),
    "llm.runaway_time": (
        "Le serveur de chat {url} ({model}) envoyait encore sa réponse après {limit} : la réponse a été arrêtée. "
        "Vérifiez que le serveur respecte max_tokens, ou augmentez RAG_TIMEOUT pour une machine lente."
    ),
    "llm.runaway_line": (
        "Le serveur de chat {url} ({model}) a envoyé dans sa réponse une ligne de plus de {limit} caractères, "
        "ce qu'aucune réponse ne contient : la réponse a été arrêtée."
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
    "ask.rerank_failed": "Les passages sont dans l'ordre de la recherche : le reranker a échoué. {error}",
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
    "config.bad_network": (
        "{name} : {value} n'est ni une adresse IP ni un réseau (par ex. 127.0.0.1, 10.0.0.0/8, ::1)"
    ),
    "access.bad_key": (
        "Dans {origin}, {user} n'est ni une adresse e-mail ni un identifiant préfixé : écrivez "
        "\"{sub}\" pour le `sub` d'un fournisseur d'identité, ou \"password:reader\" / "
        "\"password:editor\" pour un mot de passe"
    ),
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
    "ask.unsure_note": (
        "Ces passages ne semblent pas répondre à « {question} » ({why}) : ils sont montrés tels quels, "
        "sans réponse rédigée. Lisez-les, ou reformulez la question."
    ),
}
