"""Fixtures for the console tests: the real API on uvicorn over a real Neo4j, and Chromium.

The API serves the committed console build at ``/ui/``; the demo session is
ingested over HTTP and verified once through the real dispatcher (inline
runner, lexical stages only so a run takes seconds: the console shows what
the engine stored, whichever stages ran). Chromium is Debian's binary driven
by Playwright (``executable_path``; no browser download). Screenshots go to
``build/console-screenshots/`` (``PROVGRAPH_SCREENSHOTS`` overrides).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from provgraph.config import Settings
from provgraph.verification.config import VerificationConfig
from services.api.app import create_app
from services.api.verification import UseCaseDispatcher

CHROMIUM = os.environ.get("PROVGRAPH_CHROMIUM", "/usr/bin/chromium")
BOOTSTRAP = "console-bootstrap-admin-key-0123456789abcdef"
DEMO_SESSION = "demo-session-1"
DEMO_OUTPUT = "coord-output"
SUB_OUTPUT = "res-output"
SHOTS = Path(os.environ.get("PROVGRAPH_SCREENSHOTS", "build/console-screenshots"))


def demo_events() -> list[dict[str, Any]]:
    text = (files("provgraph.examples") / "demo_session.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Console:
    """A running API with the demo session, and keys of each role."""

    base: str
    project: str
    admin: str
    read: str
    app: Any
    server: uvicorn.Server

    def gql(
        self, query: str, variables: dict[str, Any] | None = None, key: str | None = None
    ) -> dict[str, Any]:
        response = httpx.post(
            f"{self.base}/graphql",
            json={"query": query, "variables": variables or {}},
            headers={"Authorization": f"Bearer {key or self.admin}"},
            timeout=60,
        )
        body: dict[str, Any] = response.json()
        return body

    def wait_job(self, job_id: str, timeout: float = 180) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            job = self.gql(
                "query J($id: ID!) { job(id: $id) { state error reportVersion } }", {"id": job_id}
            )["data"]["job"]
            if job["state"] in ("DONE", "FAILED"):
                return job  # type: ignore[no-any-return]
            time.sleep(0.5)
        raise TimeoutError(f"job {job_id} did not finish in {timeout}s")


def _neo4j_uri(request: pytest.FixtureRequest) -> str:
    uri = os.environ.get("PROVGRAPH_TEST_NEO4J_URI")
    if uri:
        return uri
    return str(request.getfixturevalue("neo4j_uri"))


def start_api(settings: Settings) -> tuple[Any, uvicorn.Server, str]:
    app = create_app(settings)
    state = app.state.provgraph
    fast = VerificationConfig(embeddings=False, nli=False)
    state.verifier = UseCaseDispatcher(settings, state.store, fast)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", access_log=False, lifespan="on"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    return app, server, f"http://127.0.0.1:{port}"


@pytest.fixture(scope="package")
def console(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Console]:
    home = tmp_path_factory.mktemp("console")
    project = f"console-{uuid.uuid4().hex[:8]}"
    settings = Settings(
        home=home,
        auth=True,
        bootstrap_admin_key=BOOTSTRAP,
        project=project,
        keys_db=home / "keys.sqlite3",
        neo4j_uri=_neo4j_uri(request),
        auto_verify=False,
    )
    app, server, base = start_api(settings)
    keys = app.state.provgraph.keys()
    admin = keys.create(project, "admin", name="console-admin")[1]
    read = keys.create(project, "read", name="console-read")[1]
    response = httpx.post(
        f"{base}/v1/events",
        json=demo_events(),
        headers={"Authorization": f"Bearer {admin}"},
        timeout=60,
    )
    assert response.status_code == 207 and response.json()["rejected"] == 0, response.text
    env = Console(base, project, admin, read, app, server)
    job = env.gql(
        "mutation V($id: ID!) { requestVerification(outputId: $id) { id } }", {"id": DEMO_OUTPUT}
    )["data"]["requestVerification"]
    assert env.wait_job(job["id"])["state"] == "DONE"
    yield env
    server.should_exit = True


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """Closed when the console tests end: Playwright's sync API keeps an event loop running
    in this thread while open, which would break later tests that call ``asyncio.run``."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; make test installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session", autouse=True)
def _screenshot_dir() -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True, exist_ok=True)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def shot(page: Any, name: str, full_page: bool = False) -> Path:
    """Write a screenshot artefact and return its path."""
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def sign_in(page: Any, console: Console, key: str, hash_: str = "#/sessions") -> None:
    page.goto(f"{console.base}/ui/{hash_}")
    page.fill("#api-key", key)
    page.click("form.signin button[type=submit]")
    page.wait_for_selector("#who .role")
