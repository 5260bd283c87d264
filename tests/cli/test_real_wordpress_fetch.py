"""`rag fetch` against a real WordPress (tests/fixtures/real_wordpress.py): refused credentials,
a protected post skipped with exit 0, and an anonymous --prune that keeps the private posts' files."""

from __future__ import annotations

import pytest

from rag.cli.main import main
from tests.fixtures import real_wordpress as rw

pytestmark = pytest.mark.slow


def test_fetch_signed_in_then_an_anonymous_prune_keeps_the_private_file(real_wordpress, tmp_path, capsys):
    out = tmp_path / "site"
    signed_in = ["--user", real_wordpress.username, "--app-password", real_wordpress.app_password]
    assert main(["fetch", real_wordpress.url, "--out", str(out), *signed_in]) == 0  # the protected post: skipped
    capsys.readouterr()
    private = next(p for p in out.glob("*.md") if "rotation-du-compte-krbtgt" in p.name)
    assert "title: Rotation du compte krbtgt" in private.read_text(encoding="utf-8")
    assert not any(rw.PROTECTED_SECRET in p.read_text(encoding="utf-8") for p in out.glob("*.md"))

    assert main(["fetch", real_wordpress.url, "--out", str(out), "--prune"]) == 0
    capsys.readouterr()
    assert private.exists()


def test_fetch_with_a_wrong_application_password_says_refused(real_wordpress, tmp_path, capsys):
    status = main(["fetch", real_wordpress.url, "--out", str(tmp_path / "site"), "--user", real_wordpress.username,
                   "--app-password", real_wordpress.login_password])
    out, err = capsys.readouterr()
    assert status == 2 and "refused the credentials" in out + err and real_wordpress.login_password not in out + err
