"""The settings that keep Streamlit's English menu and status off the page (the browser's view of
it: tests/ui/test_browser_phone_charts.py): the minimal toolbar, and no menu item set by the app,
which would bring the whole menu back with "Running..." and "Stop" beside it."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_toolbar_is_minimal_and_the_app_sets_no_menu_item():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["toolbarMode"] == "minimal"
    calls = [node for path in [*(ROOT / "ui").rglob("*.py"), *(ROOT / "app_pages").glob("*.py"),
                               ROOT / "streamlit_app.py", ROOT / "serve.py"]
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr == "set_page_config"]
    assert calls and all("menu_items" not in {k.arg for k in call.keywords} for call in calls)


def test_the_uploader_limit_streamlit_draws_is_the_documents_own():
    """Beside "Taille maximale : 10 Mo" the uploader drew "200MB per file": both say 10 now."""
    from rag.sources.limits import DEFAULT_MAX_DOC_MB

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["maxUploadSize"] == DEFAULT_MAX_DOC_MB
