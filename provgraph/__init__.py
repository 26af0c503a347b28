"""provgraph: provenance graphs and citation verification for LLM agents.

The library API mirrors ``pydantic_ai_provenance``: ``provgraph.graph``,
``provgraph.store``, ``provgraph.citations``, ``provgraph.attribution``,
``provgraph.verification`` and ``provgraph.capability``.
"""

__version__ = "0.1.0"
