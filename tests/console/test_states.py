"""The console's bad states (unknown ids, revoked key, API down), accessibility, a big session."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from provgraph.config import Settings
from provgraph.examples.synthetic import synthetic_session

from .conftest import BOOTSTRAP, DEMO_OUTPUT, DEMO_SESSION, Console, shot, sign_in, start_api

pytestmark = pytest.mark.neo4j
AXE = Path(__file__).parent / "vendor" / "axe.min.js"


def test_unknown_session_and_output_say_not_found(page: Any, console: Console) -> None:
    sign_in(page, console, console.read, "#/session/no-such-session")
    page.locator(".empty-state h1:has-text('Session not found')").wait_for()
    assert "no-such-session" in page.locator(".empty-state").inner_text()
    shot(page, "08-unknown-session")
    page.goto(f"{console.base}/ui/#/output/no-such-output")
    page.locator(".empty-state h1:has-text('Output not found')").wait_for()


def test_a_revoked_key_is_signed_out_with_the_reason(page: Any, console: Console) -> None:
    keys = console.app.state.provgraph.keys()
    record, token = keys.create(console.project, "read", name="soon-revoked")
    sign_in(page, console, token)
    page.locator(f"tr[data-session='{DEMO_SESSION}']").wait_for()  # signed in and idle
    keys.revoke(record.id)
    page.goto(f"{console.base}/ui/#/session/{DEMO_SESSION}")
    page.locator("form.signin .notice").wait_for()
    assert "not recognised" in page.locator("form.signin .notice").inner_text()
    assert page.evaluate("sessionStorage.getItem('provgraph.apiKey')") is None
    shot(page, "09-revoked-key")
    page.fill("#api-key", "pgk_0000000000000000_not-a-real-key-at-all-000000000000000")
    page.click("form.signin button[type=submit]")
    page.locator("#signin-error:has-text('Key refused')").wait_for()


def test_api_down_shows_a_banner_then_recovers(page: Any, console: Console, tmp_path: Path) -> None:
    project = f"down-{uuid.uuid4().hex[:6]}"
    settings = Settings(
        home=tmp_path,
        auth=True,
        bootstrap_admin_key=BOOTSTRAP,
        project=project,
        keys_db=tmp_path / "keys.sqlite3",
        neo4j_uri=console.app.state.provgraph.settings.neo4j_uri,
        auto_verify=False,
    )
    _, server, base = start_api(settings)
    page.goto(f"{base}/ui/")
    page.fill("#api-key", BOOTSTRAP)
    page.click("form.signin button[type=submit]")
    page.locator(".empty-state h2:has-text('No sessions yet')").wait_for()
    server.should_exit = True
    for _ in range(100):
        try:
            httpx.get(f"{base}/healthz", timeout=0.5)
        except httpx.HTTPError:
            break
        page.wait_for_timeout(100)
    page.evaluate("location.hash = '#/sessions?q=x'")
    banner = page.locator("#banner")
    banner.wait_for(state="visible")
    assert "cannot be reached" in banner.inner_text()
    shot(page, "10-api-down")


def _serious(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target)}))"
    )
    return [v for v in result if v["impact"] in ("serious", "critical")]


def test_pages_have_no_serious_accessibility_violations(browser: Any, console: Console) -> None:
    # the console's CSP forbids injected scripts; this context lets the test inject axe-core
    context = browser.new_context(viewport={"width": 1440, "height": 900}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{console.base}/ui/")
    page.locator("#api-key").wait_for()
    assert _serious(page) == [], "sign-in"
    sign_in(page, console, console.read)
    page.locator(f"tr[data-session='{DEMO_SESSION}']").wait_for()
    assert _serious(page) == [], "sessions"
    page.goto(f"{console.base}/ui/#/session/{DEMO_SESSION}")
    page.wait_for_selector("#graph[data-rendered='true']")
    assert _serious(page) == [], "session"
    page.goto(f"{console.base}/ui/#/output/{DEMO_OUTPUT}")
    page.locator("button.cite").first.click()
    page.locator("#citation article.check").first.wait_for()
    assert _serious(page) == [], "output"
    page.goto(f"{console.base}/ui/#/sources/ana-read-1")
    page.locator("#impact").wait_for()
    assert _serious(page) == [], "sources"
    context.close()


def test_citations_and_lists_work_from_the_keyboard(page: Any, console: Console) -> None:
    sign_in(page, console, console.read, f"#/output/{DEMO_OUTPUT}")
    first = page.locator("button.cite").first
    first.wait_for()
    first.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.verdict")
    page.keyboard.press("Enter")
    page.locator("#citation article.check").first.wait_for()
    assert focused and page.locator("button.cite.active").get_attribute("data-verdict") == focused
    # verdicts are told by text too, not by colour alone
    assert all(
        label.startswith("Citation ") and ":" in label
        for label in page.locator("button.cite").evaluate_all(
            "bs => bs.map(b => b.getAttribute('aria-label'))"
        )
    )


def test_lineage_down_from_a_source_lists_the_outputs(page: Any, console: Console) -> None:
    sign_in(page, console, console.read, "#/sources/ana-read-1")
    impact = page.locator("#impact")
    impact.wait_for()
    text = impact.inner_text()
    assert "Final output: data_analyst" in text and "Final output: research_coordinator" in text
    shot(page, "11-source-impact")


def test_a_5000_node_session_opens_collapsed_by_agent(page: Any, console: Console) -> None:
    session = f"big-{uuid.uuid4().hex[:6]}"
    events = synthetic_session(session, 5000)
    for start in range(0, len(events), 1000):
        response = httpx.post(
            f"{console.base}/v1/events",
            json=events[start : start + 1000],
            headers={"Authorization": f"Bearer {console.admin}"},
            timeout=120,
        )
        assert response.status_code == 207 and response.json()["rejected"] == 0
    sign_in(page, console, console.read, f"#/session/{session}")
    page.wait_for_selector("#graph[data-rendered='true']", timeout=60_000)
    state = page.evaluate(
        "() => { const g = window.__provgraph; return {nodes: g.nodes,"
        " collapsed: g.view.collapsed().size, drawn: g.view.cy.nodes().length}; }"
    )
    assert state["nodes"] == len(events)
    assert state["collapsed"] == 10 and state["drawn"] == 10  # one box per agent
    shot(page, "12-big-session")
    page.locator(".agents .chip", has_text="agent_03").click()
    page.wait_for_function("() => window.__provgraph.view.cy.nodes().length > 400")


def test_neo4j_unreachable_is_said_not_shown_as_a_blank_page(page: Any, tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        dead = sock.getsockname()[1]
    settings = Settings(
        home=tmp_path,
        auth=True,
        bootstrap_admin_key=BOOTSTRAP,
        project="nodb",
        keys_db=tmp_path / "keys.sqlite3",
        neo4j_uri=f"bolt://127.0.0.1:{dead}",
        auto_verify=False,
    )
    _, server, base = start_api(settings)
    try:
        page.goto(f"{base}/ui/")
        page.fill("#api-key", BOOTSTRAP)
        page.click("form.signin button[type=submit]")
        error = page.locator("#signin-error")
        error.wait_for()
        page.wait_for_function("() => document.getElementById('signin-error').textContent !== ''")
        assert (
            "503" in error.inner_text() and "store or broker is unavailable" in error.inner_text()
        )
        assert "Neo4j" in error.locator(".detail").inner_text()
        shot(page, "13-neo4j-down")
    finally:
        server.should_exit = True
