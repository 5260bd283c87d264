"""The sign-in key kept in the data folder: what one start of the app signed, the next start
accepts (sessions and shared-password readers' devices), and what was signed out of stays closed,
on real files. A key file that cannot be used or written still lets the app start, and says what
is wrong and what to do."""

from __future__ import annotations

import errno
import logging
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

from rag.i18n import language
from rag.auth.session_key import KEY_BYTES, KEY_FILE, load
from rag.auth.sessions import SessionBook
from tests.fixtures.disk import full_disk
from tests.test_roles import Clock

ROOT = Path(__file__).resolve().parents[1]


def passwords(role):
    return {"reader": "reader pass", "editor": "editor pass"}.get(role)


def signed_in(book: SessionBook, role: str = "reader") -> str:
    token, _ = book.redeem(book.ticket(role, 3600), passwords)
    return token


def test_a_session_and_a_device_outlive_a_restart_on_the_same_data_folder(tmp_path):
    before = SessionBook.for_data_dir(tmp_path / "data")
    session, device = signed_in(before), before.device()
    reader = before.device_id(device)

    after = SessionBook.for_data_dir(tmp_path / "data")  # the app restarted
    assert after.role(session, passwords) == "reader"
    assert reader and after.device_id(device) == reader  # the same reader: their conversations stay theirs
    assert after.key.kept and after.key.message() is None

    elsewhere = SessionBook.for_data_dir(tmp_path / "other")
    assert elsewhere.role(session, passwords) is None and elsewhere.device_id(device) is None


def test_a_changed_password_still_signs_everyone_out_across_a_restart(tmp_path):
    session = signed_in(SessionBook.for_data_dir(tmp_path))
    after = SessionBook.for_data_dir(tmp_path)
    assert after.role(session, lambda role: "a new reader pass") is None
    assert after.role(session, passwords) == "reader"  # the old password, back, opens it again


def test_the_key_file_is_made_once_owner_only_whatever_the_umask(tmp_path):
    previous = os.umask(0)
    try:
        first = load(tmp_path / "new" / "data")  # the folder is made too
    finally:
        os.umask(previous)
    path = tmp_path / "new" / "data" / KEY_FILE
    assert first.path == path and first.kept
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_bytes() == first.secret and len(first.secret) == KEY_BYTES
    assert load(tmp_path / "new" / "data").secret == first.secret  # read, not made again


def test_processes_starting_together_agree_on_one_key(tmp_path):
    go = tmp_path / "go"
    script = ("import os, pathlib, sys, time\n"
              "from rag.auth.session_key import load\n"
              "pathlib.Path(sys.argv[3]).touch()\n"
              "while not os.path.exists(sys.argv[1]): time.sleep(0.001)\n"
              "print(load(sys.argv[2]).secret.hex())")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ready = [tmp_path / f"ready-{n}" for n in range(4)]
    starts = [subprocess.Popen([sys.executable, "-c", script, str(go), str(tmp_path / "data"), str(mark)], env=env,
                               stdout=subprocess.PIPE, text=True) for mark in ready]
    deadline = time.monotonic() + 60
    while not all(mark.exists() for mark in ready) and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()  # all started, then all at once
    keys = {start.communicate(timeout=60)[0].strip() for start in starts}
    assert keys == {(tmp_path / "data" / KEY_FILE).read_bytes().hex()}


def test_a_start_during_a_slow_first_write_gets_the_same_key(tmp_path, monkeypatch):
    # A busy machine: the first start is held between making its file and writing the key, longer
    # than a reader waits for a short file.
    real_fchmod = os.fchmod
    first_writing = threading.Event()

    def slow_fchmod(descriptor, mode):
        first_writing.set()
        time.sleep(2.5)
        real_fchmod(descriptor, mode)

    monkeypatch.setattr(os, "fchmod", slow_fchmod)
    keys = {}
    first = threading.Thread(target=lambda: keys.setdefault("first", load(tmp_path)))
    first.start()
    assert first_writing.wait(10)
    monkeypatch.setattr(os, "fchmod", real_fchmod)  # the second start is not held
    keys["second"] = load(tmp_path)
    first.join()
    assert keys["first"].kept and keys["second"].kept
    assert keys["first"].secret == keys["second"].secret == (tmp_path / KEY_FILE).read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == [KEY_FILE]  # nothing of the write left behind


def test_a_start_that_finds_the_key_file_being_written_waits_for_it(tmp_path):
    path = tmp_path / KEY_FILE
    path.touch(mode=0o600)  # the other process has created it and not written it yet
    secret = os.urandom(KEY_BYTES)
    writer = threading.Timer(0.3, path.write_bytes, args=(secret,))
    writer.start()
    try:
        key = load(tmp_path)
    finally:
        writer.join()
    assert key.kept and key.secret == secret


def test_a_damaged_key_file_is_kept_said_and_the_app_still_signs_in(tmp_path, caplog):
    path = tmp_path / KEY_FILE
    path.write_bytes(b"short")
    os.utime(path, (time.time() - 60, time.time() - 60))  # not a file another process is writing now
    with caplog.at_level(logging.WARNING, logger="rag.auth.session_key"):
        book = SessionBook.for_data_dir(tmp_path)
    message = book.key.message()
    assert not book.key.kept
    assert f"{path} is damaged: it holds 5 bytes instead of 32" in message and "Delete the file" in message
    assert message in caplog.text  # said at start, in the log
    assert path.read_bytes() == b"short"  # never replaced behind the editor's back
    assert book.role(signed_in(book), passwords) == "reader"  # this process still signs in
    with language("fr"):
        assert "est abîmée : elle fait 5 octets au lieu de 32" in book.key.message()


def test_an_unreadable_key_file_is_said_with_what_to_do(tmp_path):
    (tmp_path / KEY_FILE).mkdir()  # not a file this account can read a key from
    key = load(tmp_path)
    assert not key.kept and f"{tmp_path / KEY_FILE} cannot be read (Is a directory)" in key.message()
    assert "chmod 600" in key.message()


def test_a_key_file_readable_by_others_is_used_made_owner_only_and_said(tmp_path):
    first = load(tmp_path)
    (tmp_path / KEY_FILE).chmod(0o644)  # copied by hand, say
    again = load(tmp_path)
    assert again.kept and again.secret == first.secret  # nobody is signed out for it
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
    assert "was readable by other accounts (mode 0644)" in again.message()
    assert "If someone else may have read it, delete it" in again.message()


def test_a_full_disk_or_a_folder_that_cannot_be_written_still_lets_the_app_start(tmp_path):
    # A file that may not grow, as on a full disk: the key cannot be written, and no half key is left.
    with full_disk():
        full = SessionBook.for_data_dir(tmp_path)
    assert not full.key.kept and f"cannot be saved in {tmp_path} (File too large)" in full.key.message()
    assert "will not survive the next restart" in full.key.message()
    assert not (tmp_path / KEY_FILE).exists()
    assert full.role(signed_in(full), passwords) == "reader"
    assert load(tmp_path).kept  # once there is room, the next start keeps its key

    (tmp_path / "not-a-folder").write_text("x")
    blocked = load(tmp_path / "not-a-folder")
    assert not blocked.kept and "cannot be saved" in blocked.message() and len(blocked.secret) == KEY_BYTES


def test_a_session_signed_out_of_before_a_restart_stays_closed_after_it(tmp_path):
    before = SessionBook.for_data_dir(tmp_path)
    out, kept = signed_in(before), signed_in(before, "editor")
    before.revoke(out, passwords)
    ticket = before.ticket("reader", 3600)
    handed = before.redeem(ticket, passwords)[0]  # the browser's cookie, the session saw only its ticket
    before.revoke_ticket(ticket)
    after = SessionBook.for_data_dir(tmp_path)
    assert after.role(out, passwords) is None and after.role(handed, passwords) is None
    assert after.role(kept, passwords) == "editor"
    assert stat.S_IMODE((tmp_path / "session.revoked").stat().st_mode) == 0o600


def test_the_first_sign_out_makes_the_file_owner_only_whatever_the_umask(tmp_path):
    book = SessionBook.for_data_dir(tmp_path)
    first, second = signed_in(book), signed_in(book)
    previous = os.umask(0o277)  # one that would leave the owner unable to add the next sign-out
    try:
        book.revoke(first, passwords)
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "session.revoked").stat().st_mode) == 0o600
    book.revoke(second, passwords)
    after = SessionBook.for_data_dir(tmp_path)
    assert after.role(first, passwords) is None and after.role(second, passwords) is None
    assert len((tmp_path / "session.revoked").read_text().splitlines()) == 2


def test_a_sign_out_in_another_process_on_the_same_folder_closes_the_session_here(tmp_path):
    here, there = SessionBook.for_data_dir(tmp_path), SessionBook.for_data_dir(tmp_path)
    token = signed_in(here)
    assert here.role(token, passwords) == "reader"
    there.revoke(token, passwords)
    assert here.role(token, passwords) is None


def test_a_forged_or_foreign_token_signed_out_of_writes_nothing(tmp_path):
    book = SessionBook.for_data_dir(tmp_path / "data")
    foreign = signed_in(SessionBook.for_data_dir(tmp_path / "elsewhere"))
    for token in ("forged.token", foreign, foreign.partition(".")[0] + ".x", "x" * 5000, None):
        book.revoke(token, passwords)
    assert not (tmp_path / "data" / "session.revoked").exists()


def _two_sign_outs_one_expiring(tmp_path, clock):
    """Two sessions signed out of, then the clock past the first one's expiry: (short, long)."""
    book = SessionBook.for_data_dir(tmp_path, clock)
    short, _ = book.redeem(book.ticket("reader", 60), passwords)
    long, _ = book.redeem(book.ticket("reader", 7200), passwords)
    book.revoke(short, passwords)
    book.revoke(long, passwords)
    clock.now += 600
    return short, long


def test_expired_sign_outs_are_dropped_at_start(tmp_path):
    clock = Clock()
    short, long = _two_sign_outs_one_expiring(tmp_path, clock)
    assert len((tmp_path / "session.revoked").read_text().splitlines()) == 2
    later = SessionBook.for_data_dir(tmp_path, clock)
    assert len((tmp_path / "session.revoked").read_text().splitlines()) == 1
    assert later.role(long, passwords) is None and later.role(short, passwords) is None  # expired anyway


def test_a_sign_out_that_cannot_be_saved_is_said_and_still_holds_here(tmp_path, caplog):
    (tmp_path / "session.revoked").mkdir()  # nothing can be written there
    book = SessionBook.for_data_dir(tmp_path)
    token = signed_in(book)
    with caplog.at_level(logging.WARNING, logger="rag.auth.session_revocations"):
        book.revoke(token, passwords)
    assert book.role(token, passwords) is None
    assert f"A sign-out cannot be saved in {tmp_path / 'session.revoked'} (Is a directory)" in caplog.text
    assert "opens again until it expires" in caplog.text


def test_a_key_file_that_links_to_nothing_is_said(tmp_path, caplog):
    (tmp_path / KEY_FILE).symlink_to(tmp_path / "gone")
    with caplog.at_level(logging.WARNING, logger="rag.auth.session_key"):
        key = load(tmp_path)
    assert not key.kept and f"{tmp_path / KEY_FILE} cannot be read (No such file or directory)" in key.message()
    assert key.message() in caplog.text


def test_a_file_system_without_hard_links_still_makes_one_owner_only_key(tmp_path, monkeypatch):
    def no_links(source, target):
        raise OSError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "link", no_links)  # as on FAT or some network shares
    first = load(tmp_path)
    assert first.kept and first.message() is None
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == [KEY_FILE]  # nothing of the write left behind
    assert load(tmp_path).secret == first.secret == (tmp_path / KEY_FILE).read_bytes()


def test_sign_outs_rewritten_at_start_stay_owner_only_whatever_the_umask(tmp_path):
    clock = Clock()
    _, long = _two_sign_outs_one_expiring(tmp_path, clock)
    previous = os.umask(0o277)  # one that would leave the owner unable to write it
    try:
        later = SessionBook.for_data_dir(tmp_path, clock)  # the expired line is dropped: the file is rewritten
    finally:
        os.umask(previous)
    path = tmp_path / "session.revoked"
    assert len(path.read_text().splitlines()) == 1
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == [KEY_FILE, "session.revoked"]  # no temporary file left
    assert later.role(long, passwords) is None


def test_sign_outs_that_cannot_be_rewritten_at_start_are_kept_whole(tmp_path):
    clock = Clock()
    _, long = _two_sign_outs_one_expiring(tmp_path, clock)
    path = tmp_path / "session.revoked"
    before = path.read_bytes()
    with full_disk():
        later = SessionBook.for_data_dir(tmp_path, clock)
    assert path.read_bytes() == before  # not half of the new content: the old one, expired line and all
    assert sorted(p.name for p in tmp_path.iterdir()) == [KEY_FILE, "session.revoked"]
    assert later.role(long, passwords) is None
