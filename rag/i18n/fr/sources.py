"""Les sources : dossiers, fichiers, pages web et WordPress."""

TEXT: dict[str, str] = {
    # a note about one document or post: "item : note" in French, "item: note" in English
    "doc.about": "{item} : {note}",
    "net.too_large": (
        "{url} a envoyé plus de {limit} Mo : la réponse n'a pas été lue plus loin (aucune réponse de ce genre "
        "n'est aussi grande)."
    ),
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
    "src.yaml_duplicate": "la clé '{name}' est donnée deux fois : n'en gardez qu'une",
    "src.front_matter_form": (
        "front matter sous une forme qui n'est pas lue ici (du TOML entre des lignes '+++', ou un '---' indenté ou "
        "précédé de lignes vides) : écrivez-le en YAML entre deux lignes '---' tout en haut du fichier"
    ),
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
    "wp.bad_link": "a un lien qui n'est pas une adresse http(s) ({link}) : il serait montré aux lecteurs comme sa source, refusé",
    "wp.status_refused_detail": "WordPress a lu la demande comme anonyme et refusé de lister les articles privés",
    "wp.try_http": "L'adresse a été essayée en https : si le site n'a pas de https, donnez {url}.",
    "src.bad_url": (
        "l'url {url} de son front matter n'est pas une adresse http(s) : un fichier ne peut tenir lieu "
        "que d'une page d'un site, refusé"
    ),
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
}
