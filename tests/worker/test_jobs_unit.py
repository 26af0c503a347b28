"""The job domain, the embedded mode and the worker's pure pieces, without any server.

The embedded store is the real one (in memory); the only stand-in is
:class:`FlakyStore`, which raises ``StoreUnavailableError`` a set number of
times to drive the transient-error paths in-process.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import CollectorRegistry

from provgraph.config import Settings, load_settings
from provgraph.errors import ConfigurationError, NotFoundError, StoreUnavailableError
from provgraph.ops.worker_process import celery_command, worker_argv
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.types import Job, JobState, StoredReport
from provgraph.usecases.jobs import (
    EXTRA_DURATION_S,
    job_id_for,
    mark_failed,
    request_verification,
    run_verification_job,
    utcnow,
)
from provgraph.usecases.jobs_inline import InlineJobRunner
from provgraph.usecases.publishing import broker_connection
from provgraph.usecases.queues import HEAVY_QUEUE, LIGHT_QUEUE, queue_for
from provgraph.usecases.sweep import sweep_jobs
from provgraph.verification.config import VerificationConfig
from services.api.task_client import celery_client
from services.worker.app import celery_config
from services.worker.dispatch import enqueue_verification, shutdown_inline_runners
from services.worker.metrics import job_stats, register_job_metrics
from services.worker.options import WorkerOptions
from services.worker.tasks import backoff_countdown
from tests.worker.conftest import OUTPUT_ID, session_events

LIGHT = VerificationConfig(embeddings=False, nli=False)
P = "proj"


@pytest.fixture
def store() -> MemoryGraphStore:
    s = MemoryGraphStore(None)
    assert not s.ingest(P, session_events()).rejected
    return s


class FlakyStore:
    """Delegates to a real store; storing a job's report fails ``failures`` times first."""

    def __init__(self, inner: MemoryGraphStore, failures: int) -> None:
        self.inner = inner
        self.failures = failures

    def complete_job(
        self, project: str, report: StoredReport, job: Job
    ) -> tuple[StoredReport, Job]:
        if self.failures > 0:
            self.failures -= 1
            raise StoreUnavailableError("neo4j is restarting")
        return self.inner.complete_job(project, report, job)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_job_ids_are_deterministic_and_distinct() -> None:
    assert job_id_for("p", "o", "c") == job_id_for("p", "o", "c")
    assert (
        len(
            {
                job_id_for("p", "o", "c"),
                job_id_for("p", "o", "d"),
                job_id_for("q", "o", "c"),
                job_id_for("p", "oc", ""),
                job_id_for("po", "c", ""),
            }
        )
        == 5
    )


def test_request_is_idempotent_and_a_done_job_is_not_redone(store: MemoryGraphStore) -> None:
    job = request_verification(store, P, OUTPUT_ID, LIGHT)
    assert job.state is JobState.QUEUED and job.extra["project"] == P
    assert request_verification(store, P, OUTPUT_ID, LIGHT) == job
    done = run_verification_job(store, P, job.id, LIGHT)
    assert done.state is JobState.DONE and done.report_version == 1 and done.attempts == 1
    assert done.extra[EXTRA_DURATION_S] >= 0
    assert run_verification_job(store, P, job.id, LIGHT) == done  # redelivery: nothing happens
    assert request_verification(store, P, OUTPUT_ID, LIGHT) == done
    forced = request_verification(store, P, OUTPUT_ID, LIGHT, force=True)
    assert forced.state is JobState.QUEUED and forced.id == job.id
    again = run_verification_job(store, P, job.id, LIGHT)
    assert again.state is JobState.DONE and again.report_version == 1
    assert len(store.list_reports(P).items) == 1


def test_unknown_output_is_refused_at_request_time(store: MemoryGraphStore) -> None:
    with pytest.raises(NotFoundError, match="nope"):
        request_verification(store, P, "nope", LIGHT)


def test_permanent_failure_is_recorded_and_a_new_request_requeues(store: MemoryGraphStore) -> None:
    now = utcnow()
    job = store.save_job(
        P,
        Job(
            id="j1",
            output_id="gone",
            config_hash=LIGHT.config_hash(),
            state=JobState.QUEUED,
            created_at=now,
            updated_at=now,
        ),
    )
    failed = run_verification_job(store, P, job.id, LIGHT)
    assert failed.state is JobState.FAILED and "gone" in (failed.error or "")
    assert run_verification_job(store, P, job.id, LIGHT) == failed  # late redelivery
    real = request_verification(store, P, OUTPUT_ID, LIGHT)
    store.save_job(P, replace(real, state=JobState.FAILED, attempts=3, error="boom"))
    requeued = request_verification(store, P, OUTPUT_ID, LIGHT)
    assert requeued.state is JobState.QUEUED and requeued.attempts == 0 and requeued.error is None


def test_transient_errors_requeue_and_reraise(store: MemoryGraphStore) -> None:
    flaky = FlakyStore(store, failures=1)
    job = request_verification(store, P, OUTPUT_ID, LIGHT)
    with pytest.raises(StoreUnavailableError):
        run_verification_job(flaky, P, job.id, LIGHT)
    after = store.get_job(P, job.id)
    assert after is not None and after.state is JobState.QUEUED and after.attempts == 1
    assert "transient" in (after.error or "")
    done = run_verification_job(flaky, P, job.id, LIGHT)
    assert done.state is JobState.DONE and done.attempts == 2


def test_attempts_are_bounded(store: MemoryGraphStore) -> None:
    job = request_verification(store, P, OUTPUT_ID, LIGHT)
    store.save_job(P, replace(job, attempts=12))
    failed = run_verification_job(store, P, job.id, LIGHT, max_attempts=12)
    assert failed.state is JobState.FAILED and "12 attempts" in (failed.error or "")


def test_mark_failed_never_overrides_done(store: MemoryGraphStore) -> None:
    job = request_verification(store, P, OUTPUT_ID, LIGHT)
    done = run_verification_job(store, P, job.id, LIGHT)
    assert mark_failed(store, P, job.id, "late") == done


def test_inline_runner_retries_transient_errors_then_finishes(store: MemoryGraphStore) -> None:
    runner = InlineJobRunner(FlakyStore(store, failures=2), background=False, backoff_s=0.01)
    job = runner.submit(P, OUTPUT_ID, LIGHT)
    assert job.state is JobState.DONE and job.attempts == 3


def test_inline_runner_gives_up_after_bounded_retries(store: MemoryGraphStore) -> None:
    runner = InlineJobRunner(
        FlakyStore(store, failures=99), background=True, max_retries=2, backoff_s=0.01
    )
    job = runner.submit(P, OUTPUT_ID, LIGHT, wait=True)
    assert job.state is JobState.FAILED and "retries exhausted" in (job.error or "")
    runner.shutdown()


def test_embedded_dispatch_runs_without_a_broker(tmp_path: Path, store: MemoryGraphStore) -> None:
    settings = Settings(home=tmp_path)
    try:
        queued = enqueue_verification(P, OUTPUT_ID, settings=settings, config=LIGHT, store=store)
        assert queued.state is JobState.QUEUED
        from services.worker.dispatch import inline_runner

        assert inline_runner(store).wait_idle(120)
        final = store.get_job(P, queued.id)
        assert final is not None and final.state is JobState.DONE
        same = enqueue_verification(P, OUTPUT_ID, settings=settings, config=LIGHT, store=store)
        assert same.state is JobState.DONE and len(store.list_reports(P).items) == 1
    finally:
        shutdown_inline_runners()


def test_sweep_republishes_stale_jobs_only(store: MemoryGraphStore) -> None:
    stale = request_verification(store, P, OUTPUT_ID, LIGHT)
    old = stale.updated_at - timedelta(hours=2)
    store.save_job(P, replace(stale, updated_at=old))
    other = VerificationConfig(embeddings=False, nli=False, tfidf=False)
    fresh = request_verification(store, P, OUTPUT_ID, other)
    published: list[str] = []
    result = sweep_jobs(
        store,
        lambda p, j, c: published.append(j.id),
        queued_stale_after=600,
        running_stale_after=3600,
    )
    assert published == [stale.id] and result.requeued == (stale.id,)
    touched = store.get_job(P, stale.id)
    assert touched is not None and touched.updated_at > old
    assert (
        sweep_jobs(
            store,
            lambda p, j, c: published.append(j.id),
            queued_stale_after=600,
            running_stale_after=3600,
        ).requeued
        == ()
    )
    running = store.save_job(P, replace(fresh, state=JobState.RUNNING, updated_at=old))
    result = sweep_jobs(
        store,
        lambda p, j, c: published.append(j.id),
        queued_stale_after=600,
        running_stale_after=3600,
    )
    assert result.reset_running == (running.id,)
    reset = store.get_job(P, running.id)
    assert reset is not None and reset.state is JobState.QUEUED


def test_metrics_count_jobs_by_state_and_durations(store: MemoryGraphStore) -> None:
    job = request_verification(store, P, OUTPUT_ID, LIGHT)
    run_verification_job(store, P, job.id, LIGHT)
    request_verification(
        store, P, OUTPUT_ID, VerificationConfig(embeddings=False, nli=False, tfidf=False)
    )
    stats = job_stats(store)
    assert stats.counts == {"queued": 1, "running": 0, "done": 1, "failed": 0}
    registry = CollectorRegistry()
    register_job_metrics(lambda: store, registry=registry)
    assert registry.get_sample_value("provgraph_verification_jobs", {"state": "done"}) == 1.0
    assert registry.get_sample_value("provgraph_verification_job_duration_seconds_count") == 1.0
    assert registry.get_sample_value("provgraph_verification_jobs_up") == 1.0


def test_celery_config_has_the_reliability_settings() -> None:
    options = WorkerOptions(visibility_timeout=7200, unacked_restore_interval=2)
    conf = celery_config(Settings(broker_url="redis://h:1/0"), options)
    assert conf["task_acks_late"] and conf["task_reject_on_worker_lost"]
    assert conf["worker_prefetch_multiplier"] == 1
    assert conf["task_serializer"] == "json" and conf["accept_content"] == ["json"]
    assert conf["broker_transport_options"]["visibility_timeout"] == 7200
    assert conf["broker_transport_options"]["unacked_restore_interval"] == 2
    assert conf["broker_transport_options"]["visibility_timeout"] > conf["task_time_limit"]
    assert set(conf["task_queues"]) == {LIGHT_QUEUE, HEAVY_QUEUE}


def test_a_sentinel_broker_is_parsed_and_configured_for_every_celery_app() -> None:
    """``sentinel://`` URLs (kombu's form) and the master's name reach the worker's app,
    the API's client and the health probe; a missing master is a named configuration
    error at load time, not a failure at the first publish."""
    url = "sentinel://:pw@10.0.0.1:26379/2;sentinel://10.0.0.2;sentinel://10.0.0.3:26380"
    env = {"PROVGRAPH_BROKER_URL": url, "PROVGRAPH_REDIS_SENTINEL_MASTER": "mymaster"}
    settings = load_settings({**env, "PROVGRAPH_REDIS_SENTINEL_PASSWORD": "spw"})
    address = settings.sentinel_address
    assert address is not None
    assert address.sentinels == (("10.0.0.1", 26379), ("10.0.0.2", 26379), ("10.0.0.3", 26380))
    assert (address.master, address.password, address.db) == ("mymaster", "pw", 2)
    wanted = {"master_name": "mymaster", "sentinel_kwargs": {"password": "spw"}}
    for conf in (
        celery_config(settings, WorkerOptions()),
        celery_client(settings).conf,
        broker_connection(settings),
    ):
        assert conf["broker_url"] == url
        options = conf["broker_transport_options"]
        assert {k: options[k] for k in wanted} == wanted
        assert conf["result_backend_transport_options"]["master_name"] == "mymaster"
    assert (
        celery_config(settings, WorkerOptions())["broker_transport_options"]["visibility_timeout"]
        == WorkerOptions().visibility_timeout
    )
    with pytest.raises(ConfigurationError, match="PROVGRAPH_REDIS_SENTINEL_MASTER is not set"):
        load_settings({"PROVGRAPH_BROKER_URL": url})
    with pytest.raises(ConfigurationError, match=r"part 2 \('redis://:\*\*\*@h:1'\)"):
        load_settings({**env, "PROVGRAPH_BROKER_URL": "sentinel://h:1;redis://:secret@h:1"})
    with pytest.raises(ConfigurationError, match="REDIS_SENTINEL_MASTER"):
        celery_config(Settings(broker_url=url), WorkerOptions())
    plain = load_settings({"PROVGRAPH_BROKER_URL": "redis://h:1/0"})
    assert plain.sentinel_address is None
    assert broker_connection(plain) == {"broker_url": "redis://h:1/0"}


def test_queue_routing_by_config() -> None:
    assert queue_for(LIGHT) == LIGHT_QUEUE
    assert queue_for(VerificationConfig()) == HEAVY_QUEUE
    assert queue_for(VerificationConfig(embeddings=False, nli=False, llm_judge=True)) == HEAVY_QUEUE


def test_options_from_env_and_invariants() -> None:
    opts = WorkerOptions.from_env(
        {"PROVGRAPH_WORKER_MAX_RETRIES": "3", "PROVGRAPH_WORKER_VISIBILITY_TIMEOUT": "900"}
    )
    assert opts.max_retries == 3 and opts.visibility_timeout == 900.0
    with pytest.raises(ConfigurationError, match="VISIBILITY_TIMEOUT"):
        WorkerOptions.from_env({"PROVGRAPH_WORKER_VISIBILITY_TIMEOUT": "10"})
    with pytest.raises(ConfigurationError, match="MAX_RETRIES"):
        WorkerOptions.from_env({"PROVGRAPH_WORKER_MAX_RETRIES": "x"})


def test_backoff_grows_is_capped_and_jittered() -> None:
    opts = WorkerOptions(retry_backoff=2, retry_backoff_max=60)
    rng = random.Random(0)
    for retries, (low, high) in {0: (1, 2), 3: (8, 16), 10: (30, 60)}.items():
        values = [backoff_countdown(retries, opts, rng) for _ in range(50)]
        assert all(low <= v <= high for v in values) and len(set(values)) > 1


def test_worker_argv_defaults() -> None:
    argv = worker_argv(concurrency=3)
    assert argv[:5] == ["worker", "-Q", "light,heavy", "-c", "3"]
    assert "--without-gossip" in argv and "--without-mingle" in argv
    with pytest.raises(ConfigurationError):
        worker_argv(queues=["bogus"])
    command = celery_command(argv)
    assert command[1:5] == ["-m", "celery", "-A", "services.worker.app"]
    assert command[5:] == argv


def test_cli_module_never_imports_celery() -> None:
    source = (Path(__file__).resolve().parents[2] / "provgraph/cli/worker.py").read_text()
    lines = [line.strip() for line in source.splitlines()]
    assert not any(line.startswith(("from celery", "import celery")) for line in lines)


def test_cli_worker_commands_are_mounted_and_refuse_without_a_broker() -> None:
    from typer.testing import CliRunner

    from provgraph.cli.main import _mount_sub_apps, app

    _mount_sub_apps()
    runner = CliRunner()
    assert runner.invoke(app, ["worker", "--help"]).exit_code == 0
    result = runner.invoke(app, ["worker"], env={"PROVGRAPH_BROKER_URL": ""})
    assert result.exit_code == 2 and "PROVGRAPH_BROKER_URL" in result.output
    health = runner.invoke(
        app,
        ["worker-health", "--timeout", "1"],
        env={"PROVGRAPH_BROKER_URL": "redis://127.0.0.1:1/0"},
    )
    assert health.exit_code == 1 and "broker unreachable" in health.output


def test_auto_verify_enqueues_final_outputs_only_when_enabled(
    tmp_path: Path, store: MemoryGraphStore
) -> None:
    from services.worker.dispatch import enqueue_final_outputs, inline_runner

    events = session_events()
    try:
        off = Settings(home=tmp_path, auto_verify=False)
        assert enqueue_final_outputs(P, events, settings=off, store=store, config=LIGHT) == []
        jobs = enqueue_final_outputs(
            P, events, settings=Settings(home=tmp_path), store=store, config=LIGHT
        )
        assert [j.output_id for j in jobs] == [OUTPUT_ID]
        assert inline_runner(store).wait_idle(300)
    finally:
        shutdown_inline_runners()
