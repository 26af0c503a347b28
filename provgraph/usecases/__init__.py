"""Use cases: the application layer, framework-free.

What the API, the OTLP endpoint, the worker and the CLI share, written once
against the storage port and small ports of its own (no FastAPI, Strawberry,
Celery or ``services`` import; ``make lint`` checks it with import-linter):

* :mod:`~provgraph.usecases.ingest` — validate a batch, store it durably, one
  result per event, the accepted final outputs, auto-verification;
* :mod:`~provgraph.usecases.verification` — request verification: record the
  job, publish it through the :mod:`~provgraph.usecases.publishing` port;
* :mod:`~provgraph.usecases.jobs` — the job state machine (idempotent request
  and run), :mod:`~provgraph.usecases.jobs_inline` — the embedded runner,
  :mod:`~provgraph.usecases.sweep` — re-publish lost jobs and create the jobs
  of outputs nobody requested, :mod:`~provgraph.usecases.queues` — queue and
  task names, the contract with the worker;
* :mod:`~provgraph.usecases.keys` and :mod:`~provgraph.usecases.roles` — API
  keys (owner-only key file) and what each role may do.

One module per concern; new application logic (audit, reviews, retention)
goes here as its own module.
"""
