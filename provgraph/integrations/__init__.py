"""Adapters that record third-party agent runtimes as native provgraph events.

* :mod:`provgraph.integrations.openai_agents` — a ``TracingProcessor`` for the
  OpenAI Agents SDK (``openai-agents``);
* :mod:`provgraph.integrations.langchain` — a callback handler for LangChain
  and LangGraph (``langchain-core``).

Each submodule imports its runtime when it is imported (not when this package
is), and says which extra to install when the runtime is missing:
``pip install 'provgraph[integrations]'``. Both deliver through the SDK's
sinks (:class:`~provgraph.sdk.ProvgraphClient` for the platform,
:class:`~provgraph.sdk.EmbeddedSink` for no server).
"""

from __future__ import annotations

from provgraph.integrations._shared import MissingIntegrationError

__all__ = ["MissingIntegrationError"]
