"""Sign-in and access, in one place: who the user is and what they may see and do (access), how a
password sign-in is kept across a reload and ended (sessions, session_key, session_revocations), how
password guessing is slowed down (throttle), and the owner-only files the keys and sign-outs live
in (owner_only)."""
