"""Roles (reader, editor), the passwords that open them, OIDC identities and password throttling."""

from __future__ import annotations

import json
import logging

import pytest

from rag.auth import access
from rag.config import Settings
from rag.errors import ConfigError
from rag.auth.sessions import SessionBook
from rag.auth.throttle import Throttle, bucket, client_address, connection_peer, sign_in

BOTH = {"RAG_APP_PASSWORD": "reader pass", "RAG_EDITOR_PASSWORD": "editor pass"}


def test_a_reader_may_only_ask_and_an_editor_may_do_everything():
    assert access.allowed_actions(access.READER) == [access.ASK]
    assert access.allowed_actions(access.EDITOR) == [access.ASK, access.INGEST, access.EVALUATE,
                                                     access.SETTINGS, access.SAVE_THRESHOLD, access.JOURNAL]
    assert access.allowed_actions(None) == [] and access.allowed_actions("admin") == []
    with pytest.raises(access.AccessDenied, match="editor role"):
        access.require(access.READER, access.SAVE_THRESHOLD)
    access.require(access.EDITOR, access.SAVE_THRESHOLD)


def test_each_password_opens_its_own_role():
    assert access.password_role("reader pass", BOTH) == access.READER
    assert access.password_role("editor pass", BOTH) == access.EDITOR
    assert access.password_role("editor", BOTH) is None and access.password_role("", BOTH) is None
    assert access.password_role("editor pass", {"RAG_EDITOR_PASSWORD": "editor pass"}) == access.EDITOR
    assert access.password_role("reader pass", {"RAG_APP_PASSWORD": "reader pass"}) == access.READER
    assert access.auth_mode({}, {"RAG_EDITOR_PASSWORD": "editor pass"}) == "password"


def test_one_password_for_both_roles_is_refused():
    with pytest.raises(ConfigError, match="RAG_EDITOR_PASSWORD and RAG_APP_PASSWORD are the same"):
        access.password_role("same", {"RAG_APP_PASSWORD": "same", "RAG_EDITOR_PASSWORD": "same"})


def test_oidc_roles_come_from_the_environment_or_the_access_file(tmp_path):
    path = tmp_path / "access.toml"
    path.write_text('[users]\n"alice@example.com" = ["staff"]\n\n[roles]\n"alice@example.com" = "editor"\n'
                    '"bob@example.com" = "editor"\n', encoding="utf-8")
    env = {"RAG_ACCESS_FILE": str(path), "RAG_USERS_ROLES": '{"bob@example.com": "reader"}'}
    roles = access.load_user_roles(env)
    assert access.role_for("Alice@Example.com", roles) == access.EDITOR
    assert access.role_for("bob@example.com", roles) == access.READER  # the environment wins
    assert access.role_for("mallory@example.com", roles) == access.READER
    assert access.groups_for("alice@example.com", access.load_user_groups(env)) == ["public", "staff"]
    with pytest.raises(ConfigError, match='must be "reader" or "editor"'):
        access.load_user_roles({"RAG_USERS_ROLES": '{"eve@example.com": "admin"}'})


def test_an_unverified_address_maps_to_nobody():
    mapping = access.load_user_groups({"RAG_USERS_GROUPS": json.dumps({"alice@example.com": ["staff"]})})
    roles = {"alice@example.com": access.EDITOR}
    unverified = access.identity_keys({"email": "alice@example.com", "email_verified": False})
    missing = access.identity_keys({"email": "alice@example.com"})
    assert access.groups_for(unverified, mapping) == ["public"] and access.role_for(unverified, roles) == access.READER
    assert access.groups_for(missing, mapping) == ["public"]
    verified = access.identity_keys({"email": "Alice@Example.com", "email_verified": True})
    assert access.groups_for(verified, mapping) == ["public", "staff"] and access.role_for(verified, roles) == access.EDITOR


@pytest.mark.parametrize("lookalike, owner", [
    ("\u212aelvin@example.com", "kelvin@example.com"),  # Kelvin sign: casefold and NFC both give k
    ("straße@example.com", "strasse@example.com"),  # ß: casefold gives ss
    ("e\u0301lodie@example.com", "élodie@example.com"),  # decomposed é: not the NFC address
])
def test_a_lookalike_address_never_inherits_anothers_groups(lookalike, owner):
    mapping = access.load_user_groups({"RAG_USERS_GROUPS": json.dumps({owner: ["staff"]})})
    keys = access.identity_keys({"email": lookalike, "email_verified": True})
    assert access.groups_for(keys, mapping) == ["public"]


def test_the_sub_maps_a_user_exactly_and_only_under_its_prefix():
    mapping = access.load_user_groups({"RAG_USERS_GROUPS": json.dumps({"sub:1098AbC": ["staff"]})})
    assert access.groups_for(access.identity_keys({"sub": "1098AbC"}), mapping) == ["public", "staff"]
    assert access.groups_for(access.identity_keys({"sub": "1098abc"}), mapping) == ["public"]


def test_a_sub_that_looks_like_an_address_never_inherits_that_address():
    # A provider that lets users choose their `sub`: the attacker picks Alice's address.
    env = {"RAG_USERS_GROUPS": json.dumps({"alice@example.com": ["staff"]}),
           "RAG_USERS_ROLES": json.dumps({"alice@example.com": "editor"})}
    keys = access.identity_keys({"email": "x@evil.example", "email_verified": False, "sub": "alice@example.com"})
    assert access.groups_for(keys, access.load_user_groups(env)) == ["public"]
    assert access.role_for(keys, access.load_user_roles(env)) == access.READER
    assert not access.is_administrator(keys, access.parse_admins("alice@example.com"))


def test_a_mapping_key_that_is_neither_an_address_nor_prefixed_is_refused():
    with pytest.raises(ConfigError, match='write "sub:1098AbC"'):
        access.load_user_groups({"RAG_USERS_GROUPS": json.dumps({"1098AbC": ["staff"]})})
    with pytest.raises(ConfigError, match="neither an e-mail address nor a prefixed id"):
        access.load_user_roles({"RAG_USERS_ROLES": json.dumps({"password:admin": "editor"})})
    with pytest.raises(ConfigError, match="RAG_ADMINS"):
        Settings.from_env({"RAG_ADMINS": "alice@example.com, bob"})


def test_administrators_are_named_explicitly():
    admins = Settings.from_env({"RAG_ADMINS": " Alice@Example.com ,sub:idp|42, password:editor"}).admins
    assert admins == ("alice@example.com", "sub:idp|42", "password:editor")
    assert access.is_administrator(access.identity_keys({"email": "alice@example.com", "email_verified": True}), admins)
    assert access.is_administrator(access.identity_keys({"sub": "idp|42"}), admins)
    assert access.is_administrator([access.password_identity(access.EDITOR)], admins)
    assert not access.is_administrator([access.password_identity(access.READER)], admins)
    assert not access.is_administrator(access.identity_keys({"email": "alice@example.com"}), admins)  # unverified
    assert Settings.from_env({}).admins == ()


@pytest.mark.parametrize("address, beyond", [
    (None, True), ("", True), ("0.0.0.0", True), ("::", True), ("192.168.1.10", True), ("example.com", True),
    ("127.0.0.1", False), ("localhost", False), ("::1", False), ("[::1]", False),
])
def test_which_listening_addresses_reach_other_machines(address, beyond):
    assert access.listens_beyond_loopback(address) is beyond


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_repeated_wrong_passwords_lock_the_client_out_longer_each_time(caplog):
    clock = Clock()
    throttle = Throttle(free_attempts=5, base_lock=30, max_lock=600, clock=clock)
    with caplog.at_level(logging.WARNING, logger="rag.auth.throttle"):
        locks = [throttle.failure("10.0.0.7") for _ in range(5)]
    assert locks == [0, 0, 0, 0, 30]
    assert throttle.wait("10.0.0.7") == 30 and throttle.wait("10.0.0.8") == 0  # per client
    assert len(caplog.records) == 5 and "10.0.0.7" in caplog.records[-1].getMessage()
    assert "locked out for 30 s" in caplog.records[-1].getMessage()
    clock.now += 30
    assert throttle.wait("10.0.0.7") == 0
    assert throttle.failure("10.0.0.7") == 60  # one more wrong password: twice as long
    for _ in range(10):
        clock.now += 1000
        lock = throttle.failure("10.0.0.7")
    assert lock == 600  # capped
    throttle.success("10.0.0.7")
    assert throttle.wait("10.0.0.7") == 0 and throttle.failure("10.0.0.7") == 0


def test_a_forged_forwarded_for_never_opens_a_new_bucket():
    # 12 guesses from 12 forged addresses, sent from loopback to a server that trusts nobody.
    throttle = Throttle(free_attempts=5, base_lock=30, clock=Clock())
    for n in range(12):
        forged = f"203.0.113.{n}"
        peer = connection_peer(None, forged, server_rewrites=False)
        throttle.failure(bucket("password", client_address(peer, forged, trusted=())))
    assert throttle.wait(bucket("password", "127.0.0.1")) > 0
    # uvicorn's default (trust X-Forwarded-For from loopback) reported the forged address: undone.
    assert connection_peer("203.0.113.9", "203.0.113.9", server_rewrites=True) == "127.0.0.1"
    assert connection_peer(None, "203.0.113.9", server_rewrites=True) == "127.0.0.1"
    assert connection_peer("198.51.100.4", "203.0.113.9", server_rewrites=True) == "198.51.100.4"


def test_only_a_trusted_proxy_names_the_client():
    trusted = Settings.from_env({"RAG_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"}).trusted_proxies
    assert trusted == ("127.0.0.1/32", "10.0.0.0/8")
    assert Settings.from_env({}).trusted_proxies == ()  # none by default, loopback included
    assert client_address("127.0.0.1", "198.51.100.7", ()) == "127.0.0.1"
    assert client_address("127.0.0.1", "198.51.100.7", trusted) == "198.51.100.7"
    # What the client wrote left of the proxies' own entries is ignored.
    assert client_address("127.0.0.1", "203.0.113.1, 198.51.100.7, 10.1.2.3", trusted) == "198.51.100.7"
    assert client_address("192.0.2.5", "198.51.100.7", trusted) == "192.0.2.5"  # not a trusted proxy
    assert client_address("127.0.0.1", "not-an-ip", trusted) == "127.0.0.1"
    with pytest.raises(ConfigError, match="RAG_TRUSTED_PROXIES: localhost is neither"):
        Settings.from_env({"RAG_TRUSTED_PROXIES": "localhost"})


def test_one_clients_guesses_behind_a_proxy_do_not_lock_out_a_browser_that_signed_in_before():
    throttle = Throttle(free_attempts=5, base_lock=30, clock=Clock())
    book = SessionBook()
    known = book.device_id(book.device())
    accounts = ["reader", "editor"]
    assert sign_in(throttle, accounts, "127.0.0.1", known, lambda a: a == "reader").account == "reader"
    for _ in range(5):  # an attacker behind the same local proxy, without a device cookie
        sign_in(throttle, accounts, "127.0.0.1", None, lambda a: False)
    assert sign_in(throttle, accounts, "127.0.0.1", None, lambda a: a == "reader").account is None
    assert sign_in(throttle, accounts, "127.0.0.1", known, lambda a: a == "reader").account == "reader"
    assert book.device_id("forged.token") is None and SessionBook().device_id(book.device()) is None


def test_a_right_reader_password_never_clears_the_wrong_guesses_at_the_editors():
    # 4 wrong guesses, the reader password, sign out; three rounds: the fifth wrong guess locks.
    throttle = Throttle(free_attempts=5, base_lock=30, clock=Clock())
    accounts = ["reader", "editor"]
    book = SessionBook()
    device = book.device_id(book.device())  # the same tab throughout: it signed in as a reader
    results = []
    for _ in range(3):
        results += [sign_in(throttle, accounts, "127.0.0.1", device, lambda a: False) for _ in range(4)]
        assert sign_in(throttle, accounts, "127.0.0.1", device, lambda a: a == "reader").account == "reader"
    assert [r.started for r in results[:5]] == [0, 0, 0, 0, 30]
    # Locked, the editor's right password gets the answer a wrong guess gets, and opens nothing.
    right = sign_in(throttle, accounts, "127.0.0.1", device, lambda a: a == "editor")
    assert right.account is None and right.wait > 0
    wrong = sign_in(throttle, accounts, "127.0.0.1", device, lambda a: False)
    assert wrong.account is None and wrong.wait > 0
    # The reader password still opens the reader's account: its own count is not locked.
    assert sign_in(throttle, accounts, "127.0.0.1", device, lambda a: a == "reader").account == "reader"


def test_a_browser_signed_in_as_a_reader_gets_no_fresh_guesses_at_the_editors():
    # Each round a new browser signs in with the reader password, then guesses at the editor's.
    throttle = Throttle(free_attempts=5, base_lock=30, clock=Clock())
    book = SessionBook()
    guesses = 0
    for _ in range(4):
        device = book.device_id(book.device())
        assert sign_in(throttle, ["reader", "editor"], "127.0.0.1", device, lambda a: a == "reader").account
        for _ in range(5):
            guess = sign_in(throttle, ["editor"], "127.0.0.1", device, lambda a: False)
            guesses += guess.wait == 0 or guess.started > 0  # tried, not refused as locked
    assert guesses == 5  # five in all, not five a browser


def _passwords(role):
    return {"reader": "reader pass", "editor": "editor pass"}.get(role)


def test_a_session_token_opens_its_role_for_a_bounded_time_only():
    clock = Clock()
    book = SessionBook(clock=clock)
    ticket = book.ticket("editor", 3600)
    token, lifetime = book.redeem(ticket, _passwords)
    assert lifetime == 3600 and book.role(token, _passwords) == "editor"
    assert book.redeem(ticket, _passwords) is None  # one use
    clock.now += 3601
    assert book.role(token, _passwords) is None  # expired
    late = book.ticket("reader", 3600)
    clock.now += 61
    assert book.redeem(late, _passwords) is None  # a ticket lasts a minute


def test_a_session_token_ends_at_sign_out_a_password_change_or_a_forgery():
    book = SessionBook()
    token, _ = book.redeem(book.ticket("reader", 3600), _passwords)
    assert book.role(token, lambda role: "changed") is None
    body, _, signature = token.partition(".")
    forged = body + "." + signature[::-1]
    assert book.role(forged, _passwords) is None and book.role("x" * 5000, _passwords) is None
    assert SessionBook().role(token, _passwords) is None  # another process (a restart)
    book.revoke(token, _passwords)
    assert book.role(token, _passwords) is None


def test_a_token_whose_lifetime_or_role_was_rewritten_or_of_another_kind_opens_nothing():
    import base64
    import json

    clock = Clock()
    book = SessionBook(clock=clock)
    token, _ = book.redeem(book.ticket("reader", 3600), _passwords)
    body, rest = token.split(".", 1)
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    for change in ({"l": 10 ** 9}, {"r": "editor"}):
        edited = base64.urlsafe_b64encode(json.dumps({**payload, **change}).encode()).decode().rstrip("=")
        assert book.role(f"{edited}.{rest}", _passwords) is None
    assert book.role(book.device(), _passwords) is None  # a device token is no session
    assert book.device_id(token) is None  # nor a session token a device
    clock.now += 3601
    assert book.role(token, _passwords) is None


def test_signing_out_ends_the_cookie_the_session_only_handed_a_ticket_for():
    book = SessionBook()
    ticket = book.ticket("reader", 3600)
    token, _ = book.redeem(ticket, _passwords)  # by the browser, through the route
    book.revoke_ticket(ticket)  # by the session, which never saw the token
    assert book.role(token, _passwords) is None
    unused = book.ticket("reader", 3600)
    book.revoke_ticket(unused)
    assert book.redeem(unused, _passwords) is None
