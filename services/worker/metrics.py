"""Job metrics for the API's ``/metrics``: jobs by state and job durations, read from the graph.

Job state lives in the graph, so the numbers are the graph's, whichever worker
(or inline runner) did the work, and they survive worker restarts. The API
registers :class:`JobMetricsCollector` once; each scrape reads the jobs (cached
for ``ttl_s`` so that several scrapers do not multiply store reads).

The store port has no count query, so counting lists jobs up to ``MAX_JOBS``
per state; above that the count is a lower bound (``provgraph_verification_jobs_capped``
says so).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import REGISTRY, Collector, CollectorRegistry

from provgraph.store.port import GraphStore
from provgraph.store.types import MAX_JOB_LISTING, Job, JobState
from provgraph.usecases.jobs import EXTRA_DURATION_S

MAX_JOBS = MAX_JOB_LISTING
DURATION_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0)


@dataclass(frozen=True)
class JobStats:
    """Counts by state and the durations of done jobs (seconds)."""

    counts: dict[str, int]
    durations: tuple[float, ...]
    capped: bool


def job_stats(store: GraphStore, project: str | None = None) -> JobStats:
    """Read job counts and done-job durations (``project`` None: all projects)."""
    counts: dict[str, int] = {}
    durations: list[float] = []
    capped = False
    for state in JobState:
        jobs = store.list_jobs(project, state=state.value, limit=MAX_JOBS)
        counts[state.value] = len(jobs)
        capped = capped or len(jobs) >= MAX_JOBS
        if state is JobState.DONE:
            durations.extend(_durations(jobs))
    return JobStats(counts, tuple(durations), capped)


def _durations(jobs: Sequence[Job]) -> Iterator[float]:
    for job in jobs:
        value = job.extra.get(EXTRA_DURATION_S)
        if isinstance(value, int | float) and not isinstance(value, bool):
            yield float(value)


def histogram_buckets(values: Sequence[float]) -> list[tuple[str, float]]:
    """Cumulative Prometheus buckets (``le`` labels, ending with ``+Inf``)."""
    buckets: list[tuple[str, float]] = []
    for bound in DURATION_BUCKETS:
        buckets.append((str(bound), float(sum(1 for v in values if v <= bound))))
    buckets.append(("+Inf", float(len(values))))
    return buckets


class JobMetricsCollector(Collector):
    """Prometheus collector of job metrics, reading the graph at scrape time."""

    def __init__(
        self, store: Callable[[], GraphStore], *, project: str | None = None, ttl_s: float = 5.0
    ) -> None:
        self._store = store
        self._project = project
        self._ttl_s = ttl_s
        self._lock = threading.Lock()
        self._cached: tuple[float, JobStats] | None = None

    def stats(self) -> JobStats:
        with self._lock:
            now = time.monotonic()
            if self._cached is None or now - self._cached[0] > self._ttl_s:
                self._cached = (now, job_stats(self._store(), self._project))
            return self._cached[1]

    def collect(self) -> Iterator[Metric]:
        try:
            stats = self.stats()
        except Exception:  # a scrape must not fail because the store is down
            up = GaugeMetricFamily(
                "provgraph_verification_jobs_up", "1 when job metrics could be read from the graph"
            )
            up.add_metric([], 0.0)
            yield up
            return
        up = GaugeMetricFamily(
            "provgraph_verification_jobs_up", "1 when job metrics could be read from the graph"
        )
        up.add_metric([], 1.0)
        yield up
        jobs = GaugeMetricFamily(
            "provgraph_verification_jobs",
            "Verification jobs in the graph by state",
            labels=["state"],
        )
        for state, count in sorted(stats.counts.items()):
            jobs.add_metric([state], float(count))
        yield jobs
        capped = GaugeMetricFamily(
            "provgraph_verification_jobs_capped",
            f"1 when some state has more than {MAX_JOBS} jobs (counts are lower bounds)",
        )
        capped.add_metric([], 1.0 if stats.capped else 0.0)
        yield capped
        duration = HistogramMetricFamily(
            "provgraph_verification_job_duration_seconds",
            "Run time of done verification jobs (last successful attempt)",
        )
        duration.add_metric([], histogram_buckets(stats.durations), sum(stats.durations))
        yield duration


def register_job_metrics(
    store: Callable[[], GraphStore],
    *,
    registry: CollectorRegistry | None = None,
    project: str | None = None,
) -> JobMetricsCollector:
    """Register the job collector on ``registry`` (default: the global one) and return it.

    ``store`` is a callable so the collector always uses the API's current
    store (it may be re-opened); call once per registry.
    """
    collector = JobMetricsCollector(store, project=project)
    (registry or REGISTRY).register(collector)
    return collector
