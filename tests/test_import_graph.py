"""The folders of `rag/` read as the flow: no module imports a later stage, and no import goes round
in a circle (a function-level import counts too: it is the same dependency, only later).

One kind of arrow is left out: a package's `__init__` loading its own parts when it needs them
(rag.i18n.numbers is read by rag.i18n's plural forms on first use); the parts may use the
package's own functions. Every other import counts.

A new package is placed in STAGES (below what imports it); an arrow back up or a cycle fails here
with the modules named, which is the fix to make.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# In the order of the flow: a package may import its own layer's and earlier layers' modules only.
STAGES = [
    # What every stage shares.
    {"errors", "i18n", "documents", "redact", "textnorm", "markdown_structure", "config", "environment",
     "auth",  # sign-in and access: who the user is, what they may see, throttling, signed cookies
     "spreadsheet", "bounded_http"},  # every HTTP read: size limits, timeouts, keys, error bodies
    {"servers"},  # the clients of OpenAI-compatible servers (chat, rerank, model lists)
    {"sources"},
    {"chunking"},
    {"enrich"},
    {"embeddings"},
    {"store"},
    {"ingest"},
    {"answer"},
    {"evaluate", "journal", "demo"},  # measures, what readers asked (recorded, checked again), the demo
    # The entry points and what reports on everything.
    {"status", "cli", "__main__"},
]


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """{module: the rag modules it imports}, from the source (every import, at any depth)."""
    modules = {_module(p): p for p in (ROOT / "rag").rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("rag"):
                for alias in node.names:  # `from rag.x import y`: y may be a module itself
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if sub in modules else node.module)
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.split(".")[0] == "rag"}
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else module
    for i, layer in enumerate(STAGES):
        if top in layer:
            return i
    raise AssertionError(f"{module}: its package {top!r} has no place in STAGES (tests/test_import_graph.py)")


def test_every_package_has_a_place_in_the_flow():
    for module in import_graph():
        if module != "rag":
            _layer(module)


def test_no_module_imports_a_later_stage():
    graph = import_graph()
    back = sorted(f"{a} -> {b}" for a, bs in graph.items() if a != "rag" for b in bs
                  if b != "rag" and _layer(b) > _layer(a))
    assert back == []


def test_no_import_cycle():
    # A package loading its own parts (see the docstring) is the package itself, not a circle.
    graph = {a: {b for b in bs if not b.startswith(a + ".")} for a, bs in import_graph().items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert [" -> ".join(c) for c in cycles] == []


def test_the_graph_is_read_from_the_source():
    # Not vacuous: the flow's known arrows are found.
    graph = import_graph()
    assert "rag.store.store" in graph["rag.ingest.run"]
    assert "rag.answer.engine" in graph["rag.answer.pipeline"] or "rag.answer.pipeline" in graph["rag.answer.engine"]
