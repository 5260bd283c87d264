"""Sources: folders, files, web pages and WordPress."""

TEXT: dict[str, str] = {
    # a note about one document or post: "item : note" in French, "item: note" in English
    "doc.about": "{item}: {note}",
    "net.too_large": "{url} sent more than {limit} MB: the answer was not read further (no answer of this kind is that large).",
    # rag/sources: folders, files, web pages
    "src.no_such_path": (
        "No such file or folder: {path}{hint}. Give a WordPress site URL (https://...) or a folder of "
        ".md, .markdown, .html or .htm files."
    ),
    "src.url_hint": " (a web address must start with https:// or http://)",
    "src.not_a_document": "{path} is not a .md, .markdown, .html or .htm file",
    "src.preview_folder": (
        "{path} is a folder: a preview reads one document. Give one of its .md, .markdown, .html or .htm files."
    ),
    "src.no_such_file": "No such file: {path}. Give a .md, .markdown, .html or .htm file, or a page URL.",
    "src.url_timeout": "{url} did not answer within {seconds} s",
    "src.url_failed": "Could not fetch {url}: {error}",
    "src.url_status": "{url} answered HTTP {status}: check the address",
    "src.nothing_to_preview": "{url} has no text to preview",
    "src.cp1252": (
        "is not valid UTF-8 (byte 0x{byte} at offset {offset}): read as Windows-1252 (cp1252); save it "
        "as UTF-8 if accented letters look wrong"
    ),
    "src.link_outside": "is a symbolic link to {target}, outside the folder: not followed, skipped",
    "src.not_a_document_skipped": "is not a .md, .markdown, .html or .htm file, skipped",
    "src.unreadable": "could not be read ({error}), skipped",
    "src.over_limit": "is over the size limit, skipped",
    "src.binary": "is a binary file (it contains NUL bytes), not text: skipped",
    "src.empty": "is empty, skipped",
    "src.front_matter": (
        "{error}: not indexed, since its access groups cannot be read. Fix the front matter (a value "
        "holding \": \" needs quotes, e.g. title: \"Incident: rotation\")"
    ),
    "src.not_indexed": "{error}: not indexed",
    "src.html_failed": "its HTML could not be converted to Markdown ({error}), skipped",
    "src.no_common_group": (
        "its front matter allows {declared} and the folder {folder}: no group in common, so only editors "
        "will see it"
    ),
    "src.folder_link_inside": "is a link to the folder {target}, already inside the source: not followed",
    "src.folder_link_outside": "is a symbolic link to the folder {target}, outside the source: not followed, skipped",
    "src.no_such_folder": "No such folder: {path}",
    "src.empty_folder": "{path} holds no .md, .markdown, .html or .htm file (hidden folders are skipped)",
    "src.mb_not_number": "{name}={value} is not a number of megabytes, e.g. 10",
    "src.mb_not_positive": "{name} must be a positive number of megabytes, got {value}",
    "src.too_big": (
        "is {size} MB, over the {limit} MB limit for one document: skipped. Split it, or raise the limit "
        "({name} or --max-doc-mb)"
    ),
    "src.looks_binary": (
        "looks like binary data read as text ({pct}% control or undecodable characters): skipped; "
        "convert it to a text format first"
    ),
    "src.encoded": (
        "is mostly encoded data ({pct}% of its text is long base64-like runs without spaces, such as an "
        "embedded file): skipped; remove the embedded data or link to it"
    ),
    "src.access_not_list": (
        "its front matter's access is {kind} {value}, not a list of groups (write e.g. access: [staff] "
        "or access: [] for editors only)"
    ),
    "src.access_bad_group": (
        "its front matter's access holds {value}, which is not a group name (write e.g. access: [staff, "
        "ops])"
    ),
    "src.redirect": "has no text, only a redirect to {target}: skipped",
    "src.links": "has no text, only {n} links: skipped",
    "src.link_to": "has no text, only a link to {target}: skipped",
    "src.link": "has no text, only a link: skipped",
    "src.no_text": "has no text (only front matter or markup), skipped",
    "src.yaml_line": " (line {n})",
    "src.yaml": "front matter is not valid YAML{line}",
    "src.yaml_duplicate": "the key '{name}' is given twice: keep one",
    "src.front_matter_form": (
        "front matter in a form that is not read here (TOML between '+++' lines, or a '---' that is indented or "
        "after blank lines): write it as YAML between two '---' lines at the very top of the file"
    ),
    "src.html_too_deep": "the HTML is nested too deeply to convert (thousands of levels)",
    # rag/sources/wordpress.py
    "wp.credentials_hint": "(--user and --app-password, or RAG_WP_USER and RAG_WP_APP_PASSWORD)",
    "wp.empty_url": "The WordPress site URL is empty: give one like https://blog.example.com",
    "wp.scheme": (
        "{url}: a WordPress site is read over http:// or https:// only, not {scheme}:. Give an address "
        "like https://blog.example.com"
    ),
    "wp.not_address_why": "{url} is not a web address ({error}): give one like https://blog.example.com",
    "wp.not_address": "{url} is not a web address: give one like https://blog.example.com",
    "wp.bad_types": "--types {value} is not a content type: use posts, pages, or both (posts,pages)",
    "wp.empty_types": "--types is empty: use posts, pages, or both (posts,pages)",
    "wp.bad_date": "--modified-after {value} is not an ISO date: use 2024-05-31 or 2024-05-31T12:00:00",
    "wp.password_without_user": "An application password was given without a username {hint}",
    "wp.repeated_page": "page {page} of the {kind} repeated earlier items: stopped paging there",
    "wp.page_limit": "stopped after {page} pages of {kind} (the limit)",
    "wp.not_a_post_item": "{url} (an item that is not a post)",
    "wp.not_a_post": "expected a post object, got {kind}",
    "wp.no_link": "has no link: it cannot be cited, skipped",
    "wp.bad_link": "has a link that is not an http(s) address ({link}): it would be shown to readers as its source, refused",
    "wp.status_refused_detail": "WordPress read the request as anonymous and refused to list private posts",
    "wp.try_http": "The address was tried over https: if the site has no https, give {url}.",
    "src.bad_url": "its front matter's url {url} is not an http(s) address: a file may only stand for a site's page, refused",
    "wp.no_content": "has no content.rendered text, skipped",
    "wp.protected": "is password-protected: its text is not served by the API, skipped",
    "wp.bad_title": "has a title that is not text ({kind}), skipped",
    "wp.no_text": "has no text once its HTML is converted (only images or embeds?), skipped",
    "wp.no_answer": "no answer within {seconds} s",
    "wp.connection_failed": "connection failed ({error})",
    "wp.page_failed": (
        "Page {page} of the {kind} of {url} failed after {n} attempts: {why}. The {kind} of the earlier "
        "pages were read; try again later."
    ),
    "wp.what_page": "page {page} of the {kind}",
    "wp.what_kind": "the {kind}",
    "wp.not_a_list": (
        "{url} answered page {page} of the {kind} with {type} JSON, not a list: is the URL the site's "
        "root address?"
    ),
    "wp.unreachable": "Could not reach {url}: {why} after {n} attempts. Check the address and that the site is up.",
    "wp.first_page_failed": (
        "Page 1 of the {kind} of {url} failed after {n} attempts: {why}. The site may be overloaded: try "
        "again later."
    ),
    "wp.refused": (
        "{url} refused the credentials of user {user} ({detail}). Check the username and use an "
        "application password (Users > Profile > Application Passwords), not the login password; private "
        "posts also need a user allowed to read them."
    ),
    "wp.auth_needed": (
        "{url} requires authentication to read its posts ({detail}): give a username and an application "
        "password {hint}."
    ),
    "wp.html": (
        "{where} answered HTML instead of JSON (HTTP {status}): the REST API may be blocked by a "
        "security or cache plugin, or the address leads to a login page."
    ),
    "wp.invalid_json": (
        "{where} answered invalid JSON (HTTP {status}, starts with {start}): a plugin or PHP warning may "
        "be corrupting the API's output."
    ),
    "wp.empty_body": "{where} answered an empty body (HTTP {status}): try again later.",
    "wp.check_types": "Check --types: posts, pages, or a custom content type's REST base.",
    "wp.not_found": "{where} answered 404 ({detail}): that route is missing or disabled on this site.{hint}",
    "wp.request_refused": "WordPress refused the request for {what} of {url}: {detail}",
    "wp.not_wordpress": (
        "{url} does not look like a WordPress site: {url}/wp-json/ and {url}/index.php/wp-json/ answered "
        "no JSON, and neither did ?rest_route=. Give the address of the WordPress site itself (e.g. "
        "https://blog.example.com), or check that its REST API is enabled."
    ),
}
