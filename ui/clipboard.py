"""A button that copies a text in one click.

Streamlit has no copy button of its own but the one its code boxes show on hover. This is a
component (st.components.v2) whose HTML, CSS and script are fixed here: the text to copy and the
words to show come as data, written with `textContent` and `value`, so nothing of an answer is ever
read as HTML. The browser's clipboard needs a secure page (https, or localhost); elsewhere the
older copy command is used, and a failure is said on the button.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui.i18n import t

_HTML = ('<button type="button" class="copy"><span class="icon" aria-hidden="true">content_copy</span>'
         '<span class="label"></span></button>')
_CSS = """
.copy {display: inline-flex; align-items: center; gap: 0.5rem; background: none; border: none; margin: 0;
       padding: 0.25rem 0; font: inherit; font-size: 0.875rem; color: var(--st-text-color); cursor: pointer;}
.copy:hover, .copy:focus-visible {color: var(--st-primary-color);}
.icon {font-family: "Material Symbols Rounded"; font-size: 1.125rem; line-height: 1; font-weight: normal;}
"""
_JS = """
export default function(component) {
  const { data, parentElement } = component;
  const button = parentElement.querySelector('button');
  const label = button.querySelector('.label');
  label.textContent = data.label;
  button.title = data.help;
  const fallback = () => {
    const area = document.createElement('textarea');
    area.value = data.text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try { return document.execCommand('copy'); } finally { area.remove(); }
  };
  const say = (words) => {
    label.textContent = words;
    setTimeout(() => { label.textContent = data.label; }, 2500);
  };
  button.onclick = async () => {
    let done = false;
    try {
      await navigator.clipboard.writeText(data.text);
      done = true;
    } catch (error) {
      try { done = fallback(); } catch (again) { done = false; }
    }
    say(done ? data.done : data.failed);
  };
}
"""
_COMPONENT: list[Any] = []  # registered once per process, on first use (it needs Streamlit's runtime)


def _component() -> Any:
    if not _COMPONENT:
        _COMPONENT.append(st.components.v2.component("rag_copy_button", html=_HTML, css=_CSS, js=_JS))
    return _COMPONENT[0]


def copy_button(text: str, key: str) -> None:
    """"Copy", which puts `text` on the clipboard, then says "Copied" (or that it could not)."""
    data = {"text": text, "label": t("ask.copy"), "help": t("ask.copy_help"), "done": t("ask.copied"),
            "failed": t("ask.copy_failed")}
    _component()(data=data, key=key, width="content")
