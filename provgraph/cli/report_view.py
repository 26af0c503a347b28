"""Render a verification report for a terminal: what was checked, what held, what did not."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from provgraph.cli.common import console as default_console
from provgraph.verification.report import StageScore, VerificationReport

VERDICT_STYLE = {
    "supported": "bold green",
    "weak": "yellow",
    "unsupported": "red",
    "contradicted": "bold red",
    "unverifiable": "magenta",
}


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _score(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _stage_text(score: StageScore | None) -> str:
    if score is None or score.score is None:
        return "—"
    contradiction = score.raw.get("contradiction")
    if isinstance(contradiction, float):
        return f"{score.score:.2f} (contra {contradiction:.2f})"
    return f"{score.score:.2f}"


def print_report(report: VerificationReport, console: Console | None = None) -> None:
    """Print the per-citation table, coverage findings, stage status and totals."""
    out = console or default_console
    out.rule("Citations")
    for check in report.checks:
        style = VERDICT_STYLE.get(check.verdict.value, "")
        scores = "  ".join(
            f"{name} {_stage_text(check.scores.get(name))}"
            for name in ("tfidf", "embeddings", "nli")
            if name in check.scores
        )
        out.print(
            f"[bold]#{check.tag_index}[/] {check.key:<5} [{style}]{check.verdict.value:<12}[/] "
            f"conf {check.confidence:.2f}  support {_score(check.support_score)}  {scores}",
            highlight=False,
        )
        out.print(f"     claim:    {_short(check.claim.text, 110)}", highlight=False)
        if check.evidence:
            out.print(f"     evidence: {_short(check.evidence.text, 110)}", highlight=False)
        if check.relative and check.relative.better_source_key:
            out.print(
                f"     [yellow]{check.relative.better_source_key} supports this claim better "
                f"than {check.key}[/]",
                highlight=False,
            )
    if report.unresolvable_keys:
        out.print(
            f"[magenta]Unresolvable keys[/] (cited, but no such source in the session; removed "
            f"from the verified text): {', '.join(report.unresolvable_keys)}",
            highlight=False,
        )
    if report.coverage:
        coverage = Table(title="Uncited sentences a source supports", expand=True)
        coverage.add_column("sentence", ratio=3)
        coverage.add_column("source", no_wrap=True)
        coverage.add_column("score", justify="right")
        coverage.add_column("stage", no_wrap=True)
        for finding in report.coverage:
            coverage.add_row(
                _short(finding.sentence, 100),
                finding.candidate_source_key,
                f"{finding.support_score:.2f}",
                finding.stage,
            )
        out.print(coverage)
    for stage in report.stages:
        if stage.status == "ran":
            model = f" ({stage.model})" if stage.model else ""
            out.print(
                f"  stage [green]{stage.name}[/] ran{model} in {stage.seconds:.2f}s",
                highlight=False,
            )
        else:
            out.print(
                f"  stage [yellow]{stage.name}[/] {stage.status}: "
                f"{stage.reason or 'turned off in the configuration'}",
                highlight=False,
            )
    totals = ", ".join(f"{name} {count}" for name, count in sorted(report.totals.items()) if count)
    rate = "n/a (nothing checked)" if report.support_rate is None else f"{report.support_rate:.0%}"
    out.print(
        f"[bold]{report.citations_checked} citation(s) checked[/]: {totals or 'none'}; "
        f"support rate {rate}; config {report.config_hash[:12]}",
        highlight=False,
    )
    out.print(Panel(report.text_with_verified_citations, title="Text with verified citations"))
