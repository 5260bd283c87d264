"""The gestures of a chat under each turn of the Ask page: copy, thumbs up/down (then a comment),
regenerate, edit and resend, stop a streaming answer.

A regenerated or edited question is asked again through the page's usual path (`ask_view.CHOSEN`,
as an example question is): the turns from it on leave the conversation first. Stop is any new run
during a stream (Streamlit ends the running script at its next element): the stream's text so far
is kept in the session (`STREAMING`) and made the turn's answer at the start of the next run.
"""

from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from rag.answer import followup
from rag.answer.citations import source_line
from rag.answer.pipeline import REFUSED_GATE
from ui import clipboard, conversations
from ui.i18n import t

STREAMING = "answer_streaming"  # the stream in progress: what a stop keeps
COMMENT_CHARS = 1000  # a reader's comment on an answer: a few sentences, not an article


def answer_text(result: Any) -> str:
    """What "copy" gives: the answer as written, then its sources as lines."""
    text = (getattr(result, "raw_answer", None) or getattr(result, "answer", None) or "").strip()
    lines = [source_line(p) for p in getattr(result, "sources", None) or []]
    if lines:
        text += f"\n\n{t('ask.sources')}\n" + "\n".join(lines)
    return text


def has_answer(result: Any) -> bool:
    return bool(getattr(result, "answer", None)) and not getattr(result, "refused", False) \
        and not getattr(result, "llm_error", None)


def _rating_value(rating: int | None) -> int | None:
    return None if rating is None else (1 if rating > 0 else 0)  # st.feedback: 1 = up, 0 = down


def copy_button(result: Any, turn: int) -> None:
    """One click puts the answer and its sources, as text, on the clipboard."""
    clipboard.copy_button(answer_text(result), key=f"copy_{turn}")


def thumbs(item: dict[str, Any], settings: Any) -> None:
    key = f"feedback_{item['turn']}"

    def voted() -> None:
        value = st.session_state.get(key)
        rating = None if value is None else (1 if value == 1 else -1)
        item["rating"] = rating
        if rating is None:
            item["comment"] = ""
        conversations.vote(settings, item.get("entry_id"), rating, item.get("comment") or "")

    st.feedback("thumbs", key=key, default=_rating_value(item.get("rating")), on_change=voted,
                disabled=not item.get("entry_id"))


def comment_button(item: dict[str, Any], settings: Any) -> None:
    """Once a reader has voted, a few words on why: the editors read them beside the vote. Sent,
    the box closes empty; the same words sent again are not recorded again."""
    key = f"feedback_comment_{item['turn']}"
    box = f"feedback_comment_box_{item['turn']}"

    def send() -> None:
        text = (st.session_state.get(key) or "").strip()
        st.session_state[box] = False  # closed, and empty when opened again
        st.session_state[key] = ""
        if text and item.get("rating") and text != (item.get("comment") or ""):
            item["comment"] = text
            conversations.vote(settings, item.get("entry_id"), item["rating"], text, thanks="ask.comment_saved")

    with st.popover(t("ask.comment"), icon=":material/rate_review:", type="tertiary", key=box, on_change="rerun"):
        st.text_area(t("ask.comment_label"), key=key, max_chars=COMMENT_CHARS, placeholder=t("ask.comment_hint"))
        st.button(t("ask.comment_send"), key=f"feedback_comment_send_{item['turn']}", icon=":material/send:",
                  type="primary", on_click=send)


def ask_again(history_key: str, chosen_key: str) -> Callable[[int, str], None]:
    """A callback: drop the turns from `index` on, then ask `question` as the next one."""
    def again(index: int, question: str) -> None:
        question = (question or "").strip()
        if not question:
            return
        st.session_state[history_key] = list(st.session_state.get(history_key, []))[:index]
        st.session_state[chosen_key] = question
    return again


def gate_inputs(settings: Any, info: dict[str, Any] | None, mode: str, groups: list[str] | None) -> list[Any]:
    """What the gate's refusal was decided on, besides the question: the collection as it stands
    (indexing and a saved threshold change its `points` or `updated`), the session's threshold,
    passages and retrieval mode, and the reader's groups. Kept with a turn (a list: it is
    stored in the session's state as it is)."""
    info = info or {}
    return [settings.collection, info.get("points"), info.get("updated"), settings.threshold, settings.top_k, mode,
            sorted(groups) if groups is not None else None]


def same_refusal_again(item: dict[str, Any], now: list[Any]) -> bool:
    """Whether asking this turn's question again could only give its gate refusal again: the gate
    decides without the model, so the same question on the same articles and settings is refused
    the same way. An answer, a model's refusal or a missing model may come out otherwise, and so
    may a follow-up the model rewrote (it may rewrite it otherwise)."""
    result = item["result"]
    rewritten = (item.get("understood") or {}).get("method") == followup.MODEL
    return getattr(result, "outcome", None) == REFUSED_GATE and item.get("gate_inputs") == now and not rewritten


def regenerate_button(item: dict[str, Any], index: int, again: Callable[[int, str], None],
                      changed: bool = False) -> None:
    """`changed`: a gate refusal asked again because the articles or the settings have changed since."""
    st.button(t("ask.regenerate"), key=f"regenerate_{item['turn']}", icon=":material/refresh:", type="tertiary",
              on_click=again, args=(index, item["question"]), help=t("ask.regenerate_changed") if changed else None)


def edit_button(item: dict[str, Any], index: int, again: Callable[[int, str], None]) -> None:
    """The question to edit and send again; sent, the box closes."""
    key = f"edit_{item['turn']}"
    box = f"edit_box_{item['turn']}"

    def resend() -> None:
        text = st.session_state.get(key) or ""
        st.session_state[box] = False
        st.session_state.pop(key, None)
        again(index, text)

    with st.popover(t("ask.edit"), icon=":material/edit:", type="tertiary", key=box, on_change="rerun"):
        st.text_area(t("ask.edit_label"), value=item["question"], key=key)
        st.caption(t("ask.edit_note"))
        st.button(t("ask.resend"), key=f"resend_{item['turn']}", icon=":material/send:", type="primary",
                  on_click=resend)


def turn_actions(item: dict[str, Any], index: int, last: bool, settings: Any,
                 again: Callable[[int, str], None], now: list[Any] | None = None) -> None:
    """The row under an answer: copy, thumbs, and on the last turn regenerate. `now`: the gate's
    inputs as they stand (gate_inputs): a gate refusal they leave unchanged gets no "Regenerate",
    which would only refuse it again, but a word on what can change the answer."""
    result = item["result"]
    same = now is not None and same_refusal_again(item, now)
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        if has_answer(result):
            copy_button(result, item["turn"])
        thumbs(item, settings)
        if item.get("rating") and item.get("entry_id"):
            comment_button(item, settings)
        if last and not same:
            regenerate_button(item, index, again,
                              changed=getattr(result, "outcome", None) == REFUSED_GATE and "gate_inputs" in item)
    if last and same:
        st.caption(f":material/info: {t('ask.same_refusal')}")
    if item.get("stopped"):
        st.caption(f":material/stop_circle: {t('ask.stopped')}")


def stop_button(turn: int) -> Any:
    """Shown while an answer streams; a click starts a new run, which ends the stream."""
    slot = st.empty()
    slot.button(t("ask.stop"), key=f"stop_{turn}", icon=":material/stop_circle:")
    return slot
