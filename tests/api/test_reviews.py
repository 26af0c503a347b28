"""Human reviews through the API: REST, the GraphQL mutation, effective verdicts in reports."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import FINAL_ID, SESSION_ID, Env, sample_report

REPORT = """query($id: ID!, $v: Int, $state: ReviewState!) {
  verificationReport(outputId: $id, version: $v) {
    version
    verdictCounts { verdict count }
    effectiveVerdictCounts { verdict count }
    reviewedCitations(state: $state) {
      tagIndex key machineVerdict effectiveVerdict overridden reviewedOnVersion
      review { reviewer note action verdict reportVersion supersedes }
    }
  }
}"""

MUTATION = """mutation($input: ReviewCitationInput!) {
  reviewCitation(input: $input) { id reviewer action machineVerdict verdict reportVersion }
}"""


def _reviewer_headers(env: Env, name: str = "alice") -> dict[str, str]:
    _, token = env.app.state.provgraph.keys().create(env.project("acme"), "review", name)
    return {"Authorization": f"Bearer {token}"}


def _override(**extra: Any) -> dict[str, Any]:
    body = {
        "output_id": FINAL_ID,
        "tag_index": 4,
        "action": "override",
        "verdict": "unsupported",
        "note": "the cited table does not mention fossil generation",
    }
    return {**body, **extra}


async def test_a_reviewer_overrides_a_verdict_over_rest(seeded: Env) -> None:
    headers = _reviewer_headers(seeded)
    response = await seeded.client.post("/v1/reviews", json=_override(), headers=headers)
    assert response.status_code == 201, response.text
    review = response.json()
    assert (review["reviewer"], review["machine_verdict"], review["verdict"]) == (
        "alice",
        "weak",
        "unsupported",
    )
    assert review["report_version"] == 1 and review["supersedes"] is None
    assert "token" not in str(review) and "pgk_" not in str(review)
    listed = await seeded.client.get(
        "/v1/reviews", params={"output_id": FINAL_ID}, headers=seeded.headers("acme", "read")
    )
    assert listed.json()["reviews"] == [review]
    entries = await seeded.store.audit_entries(seeded.project("acme"))
    assert entries[-1].kind == "review" and entries[-1].payload["review"]["id"] == review["id"]  # type: ignore[index]


async def test_bad_reviews_are_clear_4xx(seeded: Env) -> None:
    headers = _reviewer_headers(seeded)
    post = seeded.client.post
    for role in ("read", "ingest"):
        denied = await post("/v1/reviews", json=_override(), headers=seeded.headers("acme", role))
        assert denied.status_code == 403 and "review" in denied.text
    cases = [
        (_override(note="   "), 422, "note"),
        (_override(verdict="great"), 422, "verdict"),
        (_override(action="confirm", verdict="supported"), 422, "override"),
        (_override(verdict="weak"), 422, "confirm"),
        (_override(tag_index=0), 422, "several keys"),
        (_override(tag_index=7), 404, "no citation check"),
        (_override(output_id="nope"), 404, "nope"),
        (_override(version=5), 404, "version 5"),
        ({**_override(), "extra": 1}, 422, "extra"),
    ]
    for body, status, words in cases:
        response = await post("/v1/reviews", json=body, headers=headers)
        assert response.status_code == status, (body, response.text)
        assert words in response.text, (words, response.text)


async def test_graphql_review_and_effective_verdicts_survive_reverification(
    seeded: Env,
) -> None:
    headers = _reviewer_headers(seeded, "bob")
    gql_review = await seeded.client.post(
        "/graphql",
        json={
            "query": MUTATION,
            "variables": {
                "input": {
                    "outputId": FINAL_ID,
                    "tagIndex": 4,
                    "action": "override",
                    "verdict": "unsupported",
                    "note": "no support for that sentence",
                }
            },
        },
        headers=headers,
    )
    body = gql_review.json()
    assert "errors" not in body, body
    assert body["data"]["reviewCitation"]["reviewer"] == "bob"
    confirm = {
        "outputId": FINAL_ID,
        "tagIndex": 0,
        "key": "d_1",
        "action": "confirm",
        "note": "evidence matches",
    }
    denied = await seeded.gql(MUTATION, {"input": confirm}, role="read")
    assert denied["errors"] and "review" in denied["errors"][0]["message"]
    ok = await seeded.client.post(
        "/graphql", json={"query": MUTATION, "variables": {"input": confirm}}, headers=headers
    )
    assert "errors" not in ok.json(), ok.json()

    report = (await seeded.gql(REPORT, {"id": FINAL_ID, "state": "OVERRIDDEN"}))["data"][
        "verificationReport"
    ]
    assert [
        (c["tagIndex"], c["machineVerdict"], c["effectiveVerdict"])
        for c in report["reviewedCitations"]
    ] == [(4, "weak", "unsupported")]
    assert {c["verdict"]: c["count"] for c in report["verdictCounts"]}["weak"] == 1
    effective = {c["verdict"]: c["count"] for c in report["effectiveVerdictCounts"]}
    assert effective.get("weak", 0) == 0 and effective["unsupported"] == 1
    reviewed = (await seeded.gql(REPORT, {"id": FINAL_ID, "state": "REVIEWED"}))["data"]
    assert len(reviewed["verificationReport"]["reviewedCitations"]) == 2

    # a new report version (re-verification): the reviews still apply, "reviewed on version 1"
    await seeded.store.save_report(seeded.project("acme"), sample_report(config_hash="cfg-b"))
    again = (await seeded.gql(REPORT, {"id": FINAL_ID, "state": "OVERRIDDEN"}))["data"][
        "verificationReport"
    ]
    assert again["version"] == 2
    [check] = again["reviewedCitations"]
    assert check["reviewedOnVersion"] == 1 and check["effectiveVerdict"] == "unsupported"
    assert check["review"]["reviewer"] == "bob"

    summary = """query($id: ID!) { citationSummary(sessionId: $id) {
      key verdictCounts { verdict machine effective }
      latestVerdicts { verdict effectiveVerdict overridden } } }"""
    entries = (await seeded.gql(summary, {"id": SESSION_ID}))["data"]["citationSummary"]
    d1 = next(e for e in entries if e["key"] == "d_1")
    counts = {c["verdict"]: (c["machine"], c["effective"]) for c in d1["verdictCounts"]}
    assert counts["weak"] == (1, 0) and counts["unsupported"] == (0, 1)
    assert any(v["overridden"] for v in d1["latestVerdicts"])
