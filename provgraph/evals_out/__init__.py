"""Evaluations out: a session's spans and citation verdicts in the tools teams already watch.

``spans`` rebuilds a stored session as OpenTelemetry spans (OpenInference
span kinds plus GenAI attributes) with ids derived from provgraph's ids;
``phoenix`` sends them to Arize Phoenix over OTLP and logs every citation
verdict as a span annotation through Phoenix's own client. Third-party
packages (``opentelemetry-sdk``, the OTLP exporter, ``arize-phoenix-client``)
are imported lazily: ``pip install 'provgraph[phoenix]'``.
"""
