"""Where the NLI stage reads first: a quoted claim is read where it is quoted."""

from __future__ import annotations

from provgraph.verification.config import VerificationConfig
from provgraph.verification.scoring import Scored, _nli_seeds
from provgraph.verification.source_view import source_view
from provgraph.verification.sources import ResolvedSource
from provgraph.verification.stages import Stages

TOWNS = ["Arlen", "Brisk", "Corran", "Dovel", "Eskin", "Farrow", "Gelt", "Hollin", "Ister"]


def _source() -> str:
    return " ".join(
        f"The town of {town} opened its railway station in {1840 + 7 * i} after a long "
        f"dispute between the council and the mill owners about the route of the line."
        for i, town in enumerate(TOWNS)
    )


def _seeds_for(claim: str, embedding_order: list[int]) -> tuple[list[tuple[int, int]], str]:
    config = VerificationConfig()
    text = _source()
    view = source_view(text, window_chars=config.embedding_window_chars)
    scored = Scored(seeds=[view.spans[i] for i in embedding_order])
    source = ResolvedSource(key="d_1", node_id="d_1", node_type=None, label="d_1", text=text)
    _nli_seeds(Stages(config=config), [(claim, source)], [0], [scored])
    return scored.seeds, text


def test_the_window_quoting_the_claim_goes_before_the_embedding_ranking() -> None:
    claim = "The town of Farrow opened its railway station in 1875."
    n = source_view(_source(), window_chars=VerificationConfig().embedding_window_chars)
    sibling_first = [i for i in range(n.n_windows) if "Farrow" not in n.texts[i]]
    seeds, text = _seeds_for(claim, sibling_first)
    start, end = seeds[0]
    assert "Farrow opened its railway station in 1875" in text[start:end]
    assert len(seeds) == len(set(seeds))


def test_a_paraphrase_keeps_the_embedding_order() -> None:
    claim = "Farrow got its trains in the eighteen-seventies."
    n = source_view(_source(), window_chars=VerificationConfig().embedding_window_chars)
    order = list(reversed(range(n.n_windows)))
    seeds, _ = _seeds_for(claim, order)
    assert seeds[: len(order)] == [n.spans[i] for i in order]
