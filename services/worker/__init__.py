"""The verification worker service: Celery on Redis, job state in the graph.

Modules: ``app`` (the Celery app), ``tasks``, ``dispatch`` (what the API calls:
``enqueue_verification``), ``sweep`` (re-enqueue from the graph), ``metrics``
(job metrics for ``/metrics``), ``health``, ``runtime`` (per-process store and
models), ``options`` (``PROVGRAPH_WORKER_*``), ``run`` (``provgraph worker``).
Importing this package imports nothing from Celery.
"""
