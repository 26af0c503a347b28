"""Prometheus metrics, one registry per app (several apps in one test process never clash).

Labels are bounded on purpose: routes are path *templates* (never raw paths
with ids), and there is no project label (tenants are unbounded).
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from provgraph.store.types import JobState


class ApiMetrics:
    """The service's instruments; ``/metrics`` renders :attr:`registry`."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "provgraph_http_requests_total",
            "HTTP requests by route template and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "provgraph_http_request_duration_seconds",
            "HTTP request latency by route template.",
            ["method", "route"],
            registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        )
        self.events = Counter(
            "provgraph_events_total",
            "Ingested events by outcome (accepted, duplicate, rejected).",
            ["status"],
            registry=self.registry,
        )
        self.jobs = Gauge(
            "provgraph_jobs",
            "Verification jobs by state (sampled at scrape time, capped).",
            ["state"],
            registry=self.registry,
        )
        self.jobs_requested = Counter(
            "provgraph_jobs_requested_total",
            "Verification jobs requested through the API.",
            registry=self.registry,
        )
        self.ingest_in_flight = Gauge(
            "provgraph_ingest_in_flight",
            "Ingest requests (/v1/events, /v1/traces) admitted and not finished.",
            registry=self.registry,
        )
        for status in ("accepted", "duplicate", "rejected"):
            self.events.labels(status)
        for state in JobState:
            self.jobs.labels(state.value)
