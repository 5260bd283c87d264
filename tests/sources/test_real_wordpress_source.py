"""The WordPress source against a real WordPress (Debian's package, tests/fixtures/real_wordpress.py):
what the emulator cannot show, since it answers what the code expects."""

from __future__ import annotations

import pytest

from rag.documents import SKIPPED, Document, Problem
from rag.errors import SourceError
from rag.sources.wordpress import INDEX_PHP, PLAIN, PRETTY, WordPressSource
from tests.fixtures import real_wordpress as rw
from tests.fixtures.real_wordpress import FILLER

pytestmark = pytest.mark.slow


def _read(site, **options) -> tuple[WordPressSource, dict[str, Document], list[Problem]]:
    source = WordPressSource(site.url, **options)
    docs, problems = {}, []
    for item in source.iter_documents():
        if isinstance(item, Problem):
            problems.append(item)
        else:
            docs[item.doc_id] = item
    return source, docs, problems


def _doc(site, docs: dict[str, Document], key: str) -> Document:
    return docs[f"{site.url}#{site.ids[key]}"]


@pytest.mark.parametrize("structure, api", [(rw.PRETTY, PRETTY), (rw.INDEX_PHP, INDEX_PHP), (rw.PLAIN, PLAIN)])
def test_the_rest_api_is_found_in_its_three_forms_and_pages_past_100(real_wordpress, structure, api):
    with real_wordpress.permalinks(structure):
        source, docs, _ = _read(real_wordpress)
    assert source.api == api
    published = [k for k, v in rw.CONTENT.items() if v.get("type", "post") == "post" and not v.get("status")]
    assert source.total_posts == FILLER + len(published)
    # Every published post, once, over two pages of 100 (the protected one is skipped).
    assert len(docs) == FILLER + len(published) - 1
    link = _doc(real_wordpress, docs, "kerberos").url
    if structure == rw.PLAIN:
        assert link == f"{real_wordpress.url}/?p={real_wordpress.ids['kerberos']}"
    elif structure == rw.INDEX_PHP:
        assert link.startswith(f"{real_wordpress.url}/index.php/kerberos-")
    else:
        assert link.startswith(f"{real_wordpress.url}/kerberos-")


def test_blocks_classic_content_and_french_typography_come_through(real_wordpress):
    _, docs, _ = _read(real_wordpress)
    kerberos = _doc(real_wordpress, docs, "kerberos").markdown
    assert "```powershell\nGet-ADComputer SRV01" in kerberos
    assert "```\nklist purge\nklist get krbtgt\n```" in kerberos
    assert "## Vérifier les types de chiffrement" in kerberos and "### Les valeurs courantes" in kerberos
    assert "| 24 | AES128 et AES256 |" in kerberos and "Valeurs de msDS-SupportedEncryptionTypes" in kerberos
    assert "La sortie de klist après la purge" in kerberos
    assert "Événement 14 : le KDC n’a trouvé aucune clé" in kerberos
    assert "« KDC_ERR_ETYPE_NOSUPP »" in kerberos and "&nbsp;" not in kerberos
    classic = _doc(real_wordpress, docs, "classic")
    assert "La stratégie d’audit dans la console GPMC" in classic.markdown and "[caption" not in classic.markdown
    assert "« Default Domain Controllers Policy »" in classic.markdown  # wptexturize's French quotes
    assert classic.title == "Auditer l’authentification Kerberos"


def test_drafts_never_and_private_posts_only_with_the_application_password(real_wordpress):
    _, anonymous, _ = _read(real_wordpress)
    private_id = f"{real_wordpress.url}#{real_wordpress.ids['private']}"
    draft_id = f"{real_wordpress.url}#{real_wordpress.ids['draft']}"
    assert private_id not in anonymous and draft_id not in anonymous
    source, signed_in, _ = _read(real_wordpress, username=real_wordpress.username,
                                 app_password=real_wordpress.app_password)
    assert source.authenticated and draft_id not in signed_in
    private = signed_in[private_id]
    assert private.access == ["private"]
    # WordPress's "Privé : " is how its theme marks the post, not part of its title.
    assert private.title == "Rotation du compte krbtgt"
    assert "Privé" not in private.markdown and "Private" not in private.title


@pytest.mark.parametrize("which", ["wrong application password", "login password", "unknown user"])
def test_refused_credentials_say_so(real_wordpress, which):
    user, password = {
        "wrong application password": (real_wordpress.username, "abcd efgh ijkl mnop qrst uvwx"),
        "login password": (real_wordpress.username, real_wordpress.login_password),
        "unknown user": ("personne", real_wordpress.app_password),
    }[which]
    with pytest.raises(SourceError) as error:
        _read(real_wordpress, username=user, app_password=password)
    message = str(error.value)
    assert "refused the credentials" in message and "application password" in message
    assert "Invalid parameter" not in message and password not in message


def test_a_password_protected_post_is_skipped_not_failed_and_its_secret_is_nowhere(real_wordpress):
    _, docs, problems = _read(real_wordpress, username=real_wordpress.username,
                              app_password=real_wordpress.app_password)
    protected = [p for p in problems if f"post {real_wordpress.ids['protected']} " in p.item]
    assert len(protected) == 1 and protected[0].level == SKIPPED
    assert "password-protected" in protected[0].message
    assert not any(rw.PROTECTED_SECRET in d.markdown for d in docs.values())


def test_an_excerpt_only_post_is_read_from_its_excerpt(real_wordpress):
    _, docs, problems = _read(real_wordpress)
    excerpt = _doc(real_wordpress, docs, "excerpt")
    assert "SNC chiffre le trafic SAP GUI" in excerpt.markdown
    assert not [p for p in problems if f"post {real_wordpress.ids['excerpt']} " in p.item]


def test_pages_come_with_types(real_wordpress):
    _, docs, _ = _read(real_wordpress, types="pages")
    assert {d.title for d in docs.values()} == {"À propos", "Mentions légales"}


def test_an_address_without_http_that_fails_over_https_says_to_try_http(real_wordpress):
    address = real_wordpress.url.removeprefix("http://")
    source = WordPressSource(address, timeout=5, retries=0)
    with pytest.raises(SourceError) as error:
        list(source.iter_documents())
    assert f"http://{address}" in str(error.value)
