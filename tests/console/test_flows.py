"""The console in a real headless Chromium against the real API and Neo4j: the main flows."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import DEMO_OUTPUT, DEMO_SESSION, SUB_OUTPUT, Console, shot, sign_in

pytestmark = pytest.mark.neo4j


def test_console_is_served_with_its_assets_and_no_other_origin(console: Console) -> None:
    import httpx

    index = httpx.get(f"{console.base}/ui/")
    assert index.status_code == 200
    assert "default-src 'self'" in index.headers["content-security-policy"]
    assert httpx.get(f"{console.base}/ui", follow_redirects=False).status_code == 308
    for asset in re.findall(r'(?:src|href)="([^"#]+)"', index.text):
        assert not asset.startswith(("http:", "https:", "//")), asset
        assert httpx.get(f"{console.base}/ui/{asset}").status_code == 200, asset
    assert "http://" not in httpx.get(f"{console.base}/ui/app.js").text.split("sourceMappingURL")[
        0
    ].replace("http://www.w3.org", "")


def test_sign_in_open_session_graph_and_node_detail(page: Any, console: Console) -> None:
    sign_in(page, console, console.read)
    row = page.locator(f"tr[data-session='{DEMO_SESSION}']")
    row.wait_for()
    assert "contradicted" in row.inner_text()
    shot(page, "01-sessions")
    key_in_storage = page.evaluate("sessionStorage.getItem('provgraph.apiKey')")
    assert key_in_storage == console.read and console.read not in page.url
    assert page.context.cookies() == []
    row.locator("a").click()
    page.wait_for_selector("#graph[data-rendered='true']")
    assert page.locator("h1").inner_text() == f"Session {DEMO_SESSION}"
    agents = page.locator(".agents .chip").all_inner_texts()
    assert any("web_researcher" in a and "research_coordinator" in a for a in agents)
    # delegation edges are drawn emphasised, agents are compound boxes
    counts = page.evaluate(
        "() => { const cy = window.__provgraph.view.cy;"
        " return {delegations: cy.edges('.delegation').length, agents: cy.nodes('.agent').length,"
        " nodes: cy.nodes(\"[kind = 'node']\").length}; }"
    )
    assert counts["delegations"] >= 2 and counts["agents"] == 3 and counts["nodes"] >= 31
    shot(page, "02-session-graph")
    page.fill("#node-search", "ana-read-1")
    page.press("#node-search", "Enter")
    page.wait_for_selector("#detail h2:has-text('press_release')")
    assert "data_analyst" in page.locator("#detail").inner_text()
    shot(page, "02b-node-detail")
    page.click("#tab-timeline")
    page.wait_for_selector("svg.timeline .mark")
    assert page.locator("svg.timeline .lane-label").count() == 3
    shot(page, "03-session-timeline")


def test_output_contradicted_citation_shows_highlighted_evidence_and_path(
    page: Any, console: Console
) -> None:
    sign_in(page, console, console.read, f"#/output/{DEMO_OUTPUT}")
    cite = page.locator("button.cite[data-verdict='contradicted']").first
    cite.wait_for()
    assert "d_4" in cite.inner_text()
    cite.click()
    check = page.locator("#citation article.check.check-contradicted")
    check.wait_for()
    assert "founded in 1995 in Amsterdam" in page.locator("#citation blockquote.claim").inner_text()
    assert (
        page.locator("#output-text mark.claim-span")
        .inner_text()
        .startswith("The company was founded in 1995")
    )  # the claim is marked in the answer too
    evidence = page.locator("#citation mark.evidence").inner_text()
    assert "founded in 1987 in Rotterdam" in evidence
    assert "tfidf" in check.locator("table").inner_text()
    shot(page, "04-output-contradicted")
    check.locator("button[data-path]").click()
    on_path = page.evaluate(
        "() => Array.from(document.querySelectorAll('#paths button[aria-pressed=true]'))"
        ".map(b => b.dataset.source)"
    )
    assert on_path == ["ana-read-1"]
    highlighted = page.evaluate("() => window.__provgraphPath()")
    assert highlighted[0] == "ana-read-1" and highlighted[-1] == DEMO_OUTPUT
    shot(page, "05-attribution-path")
    # a longer path, through the sub-agent's delegation, is drawn hop by hop on the graph
    longest = page.locator("#paths button").last
    hops = int(longest.get_attribute("data-hops"))
    longest.click()
    drawn = page.evaluate("() => window.__provgraphPath()")
    assert hops >= 3 and len(drawn) == hops + 1 and drawn[-1] == DEMO_OUTPUT
    edges_on_path = page.evaluate("() => window.__provgraph_cy_path_edges()")
    assert edges_on_path >= hops  # one edge per hop (two when a pair has two labels)


def test_filter_sessions_by_verdict_and_text(page: Any, console: Console) -> None:
    sign_in(page, console, console.read)
    page.select_option("#f-verdict", "contradicted")
    page.click("form.filters button[type=submit]")
    page.wait_for_url(re.compile(r"verdict=contradicted"))
    page.locator(f"tr[data-session='{DEMO_SESSION}']").wait_for()
    page.select_option("#f-verdict", "unverifiable")
    page.click("form.filters button[type=submit]")
    page.locator(".empty-state h2").wait_for()
    assert "No session matches" in page.locator(".empty-state h2").inner_text()
    page.goto(f"{console.base}/ui/#/sessions?q=northwind")
    page.locator(f"tr[data-session='{DEMO_SESSION}']").wait_for()
    shot(page, "06-sessions-filtered")


def test_admin_requests_verification_and_the_report_arrives_live(
    page: Any, console: Console
) -> None:
    sign_in(page, console, console.admin, f"#/output/{SUB_OUTPUT}")
    page.locator("#verify").wait_for()
    assert "Not verified yet" in page.locator("#output-text").inner_text()
    page.wait_for_function("() => document.getElementById('live-state').textContent === 'live'")
    page.click("#verify")
    page.locator("#job.job-done").wait_for(timeout=120_000)
    page.locator("#report-summary h2:has-text('Report v1')").wait_for()
    assert page.locator("button.cite").count() == 2
    shot(page, "07-verified-live")


def test_read_key_has_no_verify_button_and_a_forged_call_is_refused(
    page: Any, console: Console
) -> None:
    sign_in(page, console, console.read, f"#/output/{DEMO_OUTPUT}")
    page.locator("button.cite").first.wait_for()
    assert page.locator("#verify").count() == 0
    forged = page.evaluate(
        """async (id) => {
          const key = sessionStorage.getItem('provgraph.apiKey');
          const query = 'mutation { requestVerification(outputId: "' + id + '") { id } }';
          const r = await fetch('/graphql', {method: 'POST', body: JSON.stringify({query}),
            headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + key}});
          return {status: r.status, body: await r.json()};
        }""",
        DEMO_OUTPUT,
    )
    assert forged["body"].get("data") is None or forged["body"]["data"] is None
    assert "admin" in forged["body"]["errors"][0]["message"]


def test_a_new_session_and_new_nodes_appear_live(page: Any, console: Console) -> None:
    import uuid

    import httpx

    from provgraph.examples.synthetic import synthetic_session

    session = f"live-{uuid.uuid4().hex[:6]}"
    events = synthetic_session(session, 20, agents=2)

    def post(batch: list[dict[str, Any]]) -> None:
        response = httpx.post(
            f"{console.base}/v1/events",
            json=batch,
            headers={"Authorization": f"Bearer {console.admin}"},
            timeout=60,
        )
        assert response.status_code == 207 and response.json()["rejected"] == 0

    sign_in(page, console, console.read)
    page.locator(f"tr[data-session='{DEMO_SESSION}']").wait_for()
    page.wait_for_function("() => document.getElementById('live-state').textContent === 'live'")
    page.wait_for_timeout(1500)  # the subscription takes its first snapshot once subscribed
    post(events[:10])
    page.locator(f"tr[data-session='{session}']").wait_for()  # no reload: the list refreshed
    page.locator(f"tr[data-session='{session}'] a").click()
    page.wait_for_selector("#graph[data-rendered='true']")
    before = page.evaluate("() => window.__provgraph.nodes")
    page.wait_for_function("() => document.getElementById('live-state').textContent === 'live'")
    page.wait_for_timeout(1500)
    post(events[10:])
    notice = page.locator("#session-changed")
    notice.wait_for()
    assert f"{len(events)} nodes now" in notice.inner_text()
    notice.locator("button").click()
    page.wait_for_function(
        f"() => window.__provgraph && window.__provgraph.nodes === {len(events)}"
    )
    assert before == 10
