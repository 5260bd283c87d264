"""docker-compose.yml and the Dockerfile, checked for structure (Docker cannot run here)."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


def _env(service: dict) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):  # the list form: ["KEY=value", ...]
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def test_compose_declares_qdrant_and_the_app(compose):
    assert {"qdrant", "app"} <= set(compose["services"])


def test_qdrant_image_is_pinned_to_the_installed_clients_minor_version(compose):
    image = compose["services"]["qdrant"]["image"]
    match = re.fullmatch(r"qdrant/qdrant:v(\d+)\.(\d+)\.(\d+)", image)
    assert match, f"the Qdrant image must be pinned to an exact vX.Y.Z tag, not {image!r}"
    client_major, client_minor = version("qdrant-client").split(".")[:2]
    assert (match.group(1), match.group(2)) == (client_major, client_minor), (
        f"{image} does not match qdrant-client {version('qdrant-client')}: upgrade both together"
    )


def test_qdrant_storage_is_a_declared_named_volume(compose):
    mounts = compose["services"]["qdrant"]["volumes"]
    sources = [m.split(":")[0] for m in mounts if isinstance(m, str) and m.split(":")[1] == "/qdrant/storage"]
    sources += [m["source"] for m in mounts if isinstance(m, dict) and m.get("target") == "/qdrant/storage"]
    assert len(sources) == 1, "Qdrant's storage must be mounted at /qdrant/storage"
    name = sources[0]
    assert not name.startswith((".", "/", "~")), "a named volume, not a host folder"
    assert name in (compose.get("volumes") or {}), f"the volume {name!r} must be declared at the top level"


def test_api_key_comes_from_the_environment_and_is_required(compose):
    qdrant_key = _env(compose["services"]["qdrant"])["QDRANT__SERVICE__API_KEY"]
    app_key = _env(compose["services"]["app"])["RAG_QDRANT_API_KEY"]
    for value in (qdrant_key, app_key):
        # ${VAR:?message} makes compose refuse to start without the key instead of running open.
        assert re.fullmatch(r"\$\{RAG_QDRANT_API_KEY:\?[^}]+\}", value), value


def test_app_reaches_qdrant_by_service_name_and_lm_studio_on_the_host(compose):
    app = compose["services"]["app"]
    env = _env(app)
    assert env["RAG_QDRANT_URL"] == "http://qdrant:6333"
    assert "host.docker.internal" in env["RAG_LLM_URL"] and env["RAG_LLM_URL"].endswith("/v1")
    assert "host.docker.internal:host-gateway" in app["extra_hosts"]


def test_app_is_built_here_starts_after_qdrant_and_keeps_its_data(compose):
    app = compose["services"]["app"]
    assert app["build"] in (".", {"context": "."}) or app["build"].get("context") == "."
    depends = app["depends_on"]
    assert "qdrant" in depends
    if isinstance(depends, dict) and depends["qdrant"].get("condition") == "service_healthy":
        assert "healthcheck" in compose["services"]["qdrant"], "service_healthy needs a healthcheck"
    env = _env(app)
    data_mounts = [m for m in app["volumes"] if isinstance(m, str) and m.split(":")[1] == env["RAG_DATA_DIR"]]
    assert data_mounts and data_mounts[0].split(":")[0] in compose["volumes"]


def test_qdrant_is_not_published_beyond_the_host(compose):
    for port in compose["services"]["qdrant"].get("ports", []):
        assert str(port).startswith("127.0.0.1:"), f"{port} would expose Qdrant to the network"


def _published_address(port: str, env: dict[str, str]) -> str:
    """The host address a `ports:` entry publishes on, as compose resolves ${VAR:-default}."""
    port = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: env.get(m.group(1)) or m.group(2), port)
    parts = port.rsplit(":", 2)
    return parts[0] if len(parts) == 3 else "0.0.0.0"


def test_the_dashboard_is_published_on_loopback_unless_told_otherwise(compose):
    # Without passwords everyone who reaches the dashboard is an editor: not the network by default.
    ports = [str(p) for p in compose["services"]["app"]["ports"]]
    assert ports and all(_published_address(p, {}) == "127.0.0.1" for p in ports), ports
    assert all(_published_address(p, {"DASHBOARD_ADDRESS": "0.0.0.0"}) == "0.0.0.0" for p in ports)


def test_dockerfile_installs_the_package_and_runs_streamlit_on_all_interfaces():
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.MULTILINE)
    assert re.search(r"^RUN pip install (--\S+ )*\.$", text, re.MULTILINE)
    cmd = re.search(r"^CMD (\[.*\])$", text, re.MULTILINE)
    assert cmd, "the Dockerfile needs a CMD"
    args = yaml.safe_load(cmd.group(1))
    assert args[:3] == ["streamlit", "run", "serve.py"]  # the app with its sign-in cookie routes
    # The web server trusts no X-Forwarded-For itself: RAG_TRUSTED_PROXIES decides.
    assert re.search(r'^\s*FORWARDED_ALLOW_IPS=(""|)$', text, re.MULTILINE)
    assert args[args.index("--server.address") + 1] == "0.0.0.0"
    for path in re.findall(r"^COPY (\S+)", text, re.MULTILINE):
        assert (ROOT / path).exists(), f"the Dockerfile copies {path}, which does not exist"


def test_the_image_holds_every_local_module_the_app_imports():
    # Everything the dashboard imports from this repository must be copied (or pip-installed).
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    copied = {Path(p).parts[0] for p in re.findall(r"^COPY (\S+)", text, re.MULTILINE)}
    sources = [ROOT / "streamlit_app.py", ROOT / "serve.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").glob("*.py")]
    local = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    for source in sources:
        for module in re.findall(r"^\s*(?:from|import)\s+(\w+)", source.read_text(encoding="utf-8"), re.MULTILINE):
            if module in local:
                assert module in copied, f"{source.name} imports {module}, which the Dockerfile does not copy"


def test_dockerignore_keeps_secrets_and_local_data_out_of_the_image():
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    for entry in (".env", ".venv", "data", ".git", ".streamlit/secrets.toml"):
        assert entry in ignored
