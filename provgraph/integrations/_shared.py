"""What the runtime adapters share: the missing-runtime error, session recorders, the step chain.

Runtimes report *spans* or *callbacks*, not a provenance DAG; the adapters
rebuild the order that attribution needs (input → request → response → tool
call → result → next request …) with a :class:`StepChain` per run, and keep one
:class:`~provgraph.sdk.SessionRecorder` per session so citation keys come from
one counter.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from provgraph.errors import ProvgraphError
from provgraph.sdk.recorder import SessionRecorder
from provgraph.sdk.sinks import EventSink

INSTALL_HINT = "pip install 'provgraph[integrations]'"

DEFAULT_MAX_SESSIONS = 1024
"""Sessions whose recorder (and key counter) an adapter keeps in memory."""


class RunFields(TypedDict):
    """The run and agent every node of a run is recorded with."""

    run_id: str
    agent_name: str


class MissingIntegrationError(ProvgraphError, ImportError):
    """The runtime an adapter records is not installed (names the package and the extra)."""


def missing_runtime(module: str, package: str, cause: ImportError) -> MissingIntegrationError:
    """The error an adapter module raises at import when its runtime is absent."""
    return MissingIntegrationError(
        f"provgraph.integrations.{module} records {package!r} runs, which is not installed "
        f"({cause}); install it with: {INSTALL_HINT}"
    )


class SessionRecorders:
    """One :class:`SessionRecorder` per session id, shared by every run of that session.

    Keys (``d_N``, ``a_N``) are allocated from the recorder's counter, so two
    traces or graph runs naming the same session continue one numbering. The
    least recently used session is forgotten beyond ``max_sessions``; a session
    resumed after that (or in another process) must not allocate keys again —
    give it a new session id.
    """

    def __init__(self, sink: EventSink, *, max_sessions: int = DEFAULT_MAX_SESSIONS) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
        self.sink = sink
        self.max_sessions = max_sessions
        self._recorders: OrderedDict[str, SessionRecorder] = OrderedDict()
        self._lock = threading.Lock()

    def for_session(self, session_id: str) -> SessionRecorder:
        with self._lock:
            recorder = self._recorders.get(session_id)
            if recorder is None:
                recorder = SessionRecorder(self.sink, session_id=session_id)
                self._recorders[session_id] = recorder
                while len(self._recorders) > self.max_sessions:
                    self._recorders.popitem(last=False)
            else:
                self._recorders.move_to_end(session_id)
            return recorder


class StepChain:
    """The nodes that feed a run's next model request, in the order they were reported.

    A model response replaces the chain (it consumed everything before it);
    tool results, data reads and failed calls after it are added; the next
    request takes them all as parents. So the final answer's ancestors are the
    responses, results and reads that led to it, and nothing else.
    """

    def __init__(self, start: str | None = None) -> None:
        self._nodes: list[str] = [start] if start else []

    @property
    def nodes(self) -> list[str]:
        return list(self._nodes)

    def reset(self, node_id: str) -> None:
        self._nodes = [node_id]

    def add(self, node_ids: str | Iterable[str]) -> None:
        for node_id in [node_ids] if isinstance(node_ids, str) else node_ids:
            if node_id not in self._nodes:
                self._nodes.append(node_id)


def first_text(*candidates: object) -> str | None:
    """The first candidate that is a non-empty string."""
    for candidate in candidates:
        if isinstance(candidate, str) and candidate:
            return candidate
    return None


def field_of(item: Any, name: str) -> Any:
    """``item[name]`` for mappings, ``item.name`` otherwise (``None`` when absent)."""
    if isinstance(item, Mapping):
        return item.get(name)
    return getattr(item, name, None)


def content_text(content: Any) -> str | None:
    """Text of a message ``content``: a string, or the ``text`` of its parts joined."""
    if isinstance(content, str):
        return content or None
    if isinstance(content, list | tuple):
        parts = [part if isinstance(part, str) else field_of(part, "text") for part in content]
        joined = "".join(p for p in parts if isinstance(p, str))
        return joined or None
    return None


def flush_sink(sink: object) -> None:
    """Flush a client (or each sink of a tee); synchronous sinks have nothing to flush."""
    for inner in getattr(sink, "sinks", None) or (sink,):
        flush = getattr(inner, "flush", None)
        if callable(flush):
            flush()
