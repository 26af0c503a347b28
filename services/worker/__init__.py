"""The verification worker service: Celery on Redis, job state in the graph.

Modules: ``app`` (the Celery app), ``tasks`` (thin: the work is in
:mod:`provgraph.usecases`), ``dispatch`` (the request use case with this
process's publisher; tests and benchmarks), ``metrics`` (job metrics for
``/metrics``), ``runtime`` (per-process store), ``options``
(``PROVGRAPH_WORKER_*``). Start it with ``provgraph worker`` or
``celery -A services.worker.app worker``. Importing this package imports
nothing from Celery.
"""
