"""`rag status` says whether the sign-in key is there and usable, and what to do when it is not;
it never prints the key, and looking changes nothing (no key made, no mode fixed, no sign-out dropped)."""

from __future__ import annotations

import base64
import json
import os
import time

import pytest

from rag.auth import session_key
from rag.cli.main import main
from rag.auth.session_revocations import REVOKED_FILE


@pytest.fixture
def quiet_llm(monkeypatch):
    monkeypatch.setenv("RAG_LLM_URL", "http://127.0.0.1:9/v1")


def _status(capsys, *args: str) -> str:
    assert main(["status", *args]) == 0
    return capsys.readouterr().out


def _leaks(secret: bytes, out: str) -> bool:
    return any(form in out for form in (secret.hex(), base64.b64encode(secret).decode(), repr(secret)))


def _old(path) -> None:
    """Written long ago: not another process's key being written right now."""
    os.utime(path, (time.time() - 60, time.time() - 60))


def test_a_kept_key_is_said_usable_and_never_printed(data_dir, quiet_llm, capsys):
    key = session_key.load(data_dir)
    before = os.stat(key.path)
    out = _status(capsys)
    assert f"Sign-in key: {key.path} (sign-ins survive a restart)" in out
    report = json.loads(_status(capsys, "--json"))["session_key"]
    assert report == {"path": str(key.path), "state": "kept", "usable": True, "problem": None}
    assert not _leaks(key.secret, out) and not _leaks(key.secret, json.dumps(report))
    assert os.stat(key.path).st_mtime_ns == before.st_mtime_ns


def test_no_key_yet_is_said_and_status_does_not_make_one(data_dir, quiet_llm, capsys):
    data_dir.mkdir(parents=True)
    out = _status(capsys)
    assert "Sign-in key: not made yet, the app makes it at its first start" in out
    assert not (data_dir / session_key.KEY_FILE).exists()


def test_a_damaged_key_says_what_to_do_and_is_left_as_it_is(data_dir, quiet_llm, capsys):
    data_dir.mkdir(parents=True)
    path = data_dir / session_key.KEY_FILE
    path.write_bytes(b"half a key")
    path.chmod(0o600)
    _old(path)
    out = _status(capsys)
    assert f"Sign-in key: {path} cannot be used" in out
    assert "holds 10 bytes instead of 32" in out and "Delete the file and restart the app" in out
    report = json.loads(_status(capsys, "--json"))["session_key"]
    assert report["state"] == "damaged" and report["usable"] is False
    assert path.read_bytes() == b"half a key"


def test_an_unreadable_key_says_what_to_do(data_dir, quiet_llm, capsys):
    (data_dir / session_key.KEY_FILE).mkdir(parents=True)  # something in its place that cannot be read
    report = json.loads(_status(capsys, "--json"))["session_key"]
    assert report["state"] == "unreadable" and report["usable"] is False
    assert "cannot be read" in report["problem"] and "restart it" in report["problem"]


def test_a_key_readable_by_others_is_said_but_its_mode_not_changed(data_dir, quiet_llm, capsys):
    key = session_key.load(data_dir)
    key.path.chmod(0o644)
    out = _status(capsys)
    assert f"Sign-in key: {key.path} (usable, but readable by other accounts)" in out
    assert "(mode 0644)" in out and "chmod 600" in out
    assert oct(key.path.stat().st_mode & 0o777) == "0o644"


def test_a_data_folder_where_the_key_cannot_be_written_is_said(tmp_path):
    folder = tmp_path / "data"
    folder.write_text("a file where the data folder should be")
    report = session_key.inspect(folder)
    assert report["state"] == "cannot_write" and report["usable"] is False
    assert "cannot be saved in" in report["problem"] and "RAG_DATA_DIR" in report["problem"]


def test_saved_sign_outs_are_counted_and_kept(data_dir, quiet_llm, capsys):
    session_key.load(data_dir)
    revoked = data_dir / REVOKED_FILE
    text = f"expired {time.time() - 10:.0f}\nlive {time.time() + 3600:.0f}\n"
    revoked.write_text(text)
    out = _status(capsys)
    assert f"Saved sign-outs: 1 still in force ({revoked})" in out
    assert json.loads(_status(capsys, "--json"))["sign_outs"] == {"path": str(revoked), "in_force": 1, "problem": None}
    assert revoked.read_text() == text  # the app drops expired lines at its start, not status


def test_in_french(data_dir, quiet_llm, capsys, monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    data_dir.mkdir(parents=True)
    path = data_dir / session_key.KEY_FILE
    path.write_bytes(b"x" * 40)
    _old(path)
    out = _status(capsys)
    assert f"Clé de connexion : {path} inutilisable" in out
    assert "elle fait 40 octets au lieu de 32" in out and "Supprimez le fichier et redémarrez" in out
