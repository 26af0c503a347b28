"""Lineage out: a session's agent runs as OpenLineage run events.

``runs`` plans the runs, datasets and parent links of one session (pure, no
third-party import); ``openlineage`` turns the plan into the client's
``RunEvent`` objects with provgraph's custom facets (``facets``); ``push``
sends them through the client's transports (HTTP, file, console). The
``openlineage-python`` client is imported lazily: without the extra
(``pip install 'provgraph[openlineage]'``) only these modules' import works,
and building events raises a :class:`~provgraph.errors.ConfigurationError`
that says what to install.
"""
