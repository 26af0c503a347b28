"""Settings: every ``PROVGRAPH_*`` environment variable, read in this one module.

No setting at all means the embedded default (in-process store with an event
log under ``PROVGRAPH_HOME``, inline verification). A Neo4j URI switches the
store to Neo4j; a broker URL switches verification to Celery workers.
``docs/configuration.md`` lists every variable; keep the two in step.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from provgraph.broker import SentinelAddress, is_sentinel_url, parse_sentinel_url
from provgraph.errors import ConfigurationError

PREFIX = "PROVGRAPH_"


class Settings(BaseModel):
    """Typed view of the environment; construct with :func:`load_settings`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    home: Path = Field(default=Path(".provgraph"), description="Data folder of the embedded mode.")
    store_path: Path | None = Field(
        default=None, description="Embedded event log (default: <home>/events.jsonl)."
    )
    project: str = Field(default="default", description="Project (tenant) used by the CLI and SDK.")
    neo4j_uri: str | None = Field(default=None, description="bolt://host:port; set to use Neo4j.")
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = None
    neo4j_database: str = "neo4j"
    neo4j_batch_size: int = Field(default=1000, ge=1, le=50_000)
    neo4j_read_timeout_s: float = Field(
        default=10.0,
        gt=0,
        le=600,
        description="Server-side timeout of one read transaction (API, workers and CLI).",
    )
    neo4j_read_concurrency: int = Field(
        default=16,
        ge=1,
        le=500,
        description="Read transactions at once per API process, on their own connection pool.",
    )
    api_gc_threshold: int = Field(
        default=10_000,
        ge=0,
        le=1_000_000,
        description="The API process's young-generation garbage-collection threshold "
        "(allocations between collections; 0 keeps Python's 700).",
    )
    graphql_max_cost: int = Field(
        default=50_000,
        ge=1,
        description="Budget of one GraphQL query: objects it may resolve, estimated up front.",
    )
    broker_url: str | None = Field(
        default=None,
        description="redis://… or sentinel://h1:p1;sentinel://h2:p2 (Redis Sentinel); "
        "set to use Celery workers.",
    )
    redis_sentinel_master: str | None = Field(
        default=None,
        description="Master name the sentinels monitor; required with a sentinel:// broker URL.",
    )
    redis_sentinel_password: str | None = Field(
        default=None, description="AUTH of the sentinels themselves, when they require it."
    )
    auto_verify: bool = Field(
        default=True, description="Enqueue verification when a final output arrives."
    )
    auth: bool = Field(
        default=True, description="Require API keys (the embedded dev server may turn it off)."
    )
    bootstrap_admin_key: str | None = Field(
        default=None, description="Admin key accepted at first start."
    )
    keys_db: Path | None = Field(
        default=None,
        description="API key database of the embedded mode (default: <home>/keys.sqlite3); "
        "with Neo4j, keys live in the graph.",
    )
    key_cache_ttl_s: float = Field(
        default=5.0,
        ge=0,
        le=300,
        description="How long an API process trusts a key it looked up (0: never); a key "
        "revoked through another process is refused within this time.",
    )
    api_url: str | None = Field(default=None, description="Where the SDK sends events.")
    api_key: str | None = None
    max_batch_events: int = Field(default=1000, ge=1, le=100_000)
    ingest_max_in_flight: int = Field(
        default=32,
        ge=1,
        description="Ingest requests (/v1/events, /v1/traces) one API process works on at once.",
    )
    ingest_admission_wait_s: float = Field(
        default=2.0,
        ge=0,
        le=60,
        description="How long a request waits for an ingest slot before 503/429 Retry-After.",
    )
    max_body_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    otlp_source_tools: str | None = Field(
        default=None,
        description="Comma-separated tool names whose OTLP tool spans are data reads "
        "(citable sources), for every project.",
    )
    nli_model: str | None = Field(
        default=None, description="NLI cross-encoder id or folder (default: shipped)."
    )
    nli_refine_model: str | None = Field(
        default=None,
        description="A larger NLI model folder that re-reads the best windows "
        "(the accurate mode; default: off).",
    )
    embedding_model: str | None = Field(
        default=None, description="Sentence-transformers id or folder."
    )
    cache_dir: Path | None = Field(
        default=None,
        description="Caches shared by worker processes, e.g. embedding vectors "
        "(default: <home>/cache).",
    )
    embedding_cache_rows: int = Field(
        default=200_000,
        ge=0,
        description="Row cap of the shared embedding cache (0 turns the disk cache off).",
    )
    llm_judge_model: str | None = Field(
        default=None,
        description="Model name of the LLM judge (OpenAI-compatible chat API); unset: no judge.",
    )
    llm_judge_base_url: str | None = Field(
        default=None, description="Base URL of the judge's OpenAI-compatible API (…/v1)."
    )
    llm_judge_api_key: str | None = Field(default=None, description="API key of the judge's API.")
    llm_judge_timeout_s: float = Field(
        default=30.0, gt=0, le=600, description="Timeout of one judge request."
    )
    llm_judge_max_retries: int = Field(
        default=3,
        ge=0,
        le=10,
        description="Retries of a judge request on 408/409/429/5xx and connection errors "
        "(exponential backoff, Retry-After honoured).",
    )
    llm_judge_max_calls: int = Field(
        default=50,
        ge=1,
        description="Judge calls per report at most; further citations are not judged.",
    )
    llm_judge_input_cost_per_mtok: float | None = Field(
        default=None,
        ge=0,
        description="Price of a million input tokens, for the report's estimate.",
    )
    llm_judge_output_cost_per_mtok: float | None = Field(
        default=None,
        ge=0,
        description="Price of a million output tokens, for the report's estimate.",
    )
    log_level: str = "INFO"
    audit_chain: bool = Field(
        default=True, description="Hash-chain every accepted batch, report and review."
    )
    audit_signing_key: Path | None = Field(
        default=None, description="Ed25519 private key (PEM) that signs audit checkpoints."
    )
    retention: str | None = Field(
        default=None,
        description="Retention policy: 'project=days,…' ('*' for every project); unset keeps all.",
    )
    openlineage_url: str | None = Field(
        default=None,
        description="OpenLineage target (http(s)://…, file://…, console) a worker pushes the "
        "session's run events to after each report it stores; unset: no push.",
    )
    openlineage_api_key: str | None = Field(
        default=None, description="Bearer key sent with PROVGRAPH_OPENLINEAGE_URL."
    )

    @property
    def event_log_path(self) -> Path:
        return self.store_path or self.home / "events.jsonl"

    @property
    def keys_db_path(self) -> Path:
        return self.keys_db or self.home / "keys.sqlite3"

    @property
    def cache_path(self) -> Path:
        return self.cache_dir or self.home / "cache"

    @property
    def uses_neo4j(self) -> bool:
        return bool(self.neo4j_uri)

    @property
    def uses_broker(self) -> bool:
        return bool(self.broker_url)

    @property
    def sentinel_address(self) -> SentinelAddress | None:
        """The Sentinel set of a ``sentinel://`` broker URL, else None.

        Raises ``ConfigurationError`` when the master name is missing or the
        URL is malformed (:func:`provgraph.broker.parse_sentinel_url`).
        """
        if not is_sentinel_url(self.broker_url):
            return None
        assert self.broker_url is not None
        return parse_sentinel_url(
            self.broker_url, self.redis_sentinel_master, self.redis_sentinel_password
        )


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Read ``PROVGRAPH_*`` variables; a malformed value names its variable.

    Unknown ``PROVGRAPH_*`` variables are an error too: a typo would otherwise
    silently leave the default in force.
    """
    env = os.environ if environ is None else environ
    values: dict[str, str] = {}
    known = set(Settings.model_fields)
    for name, value in env.items():
        if not name.startswith(PREFIX) or name.startswith(PREFIX + "TEST_"):
            continue
        field = name[len(PREFIX) :].lower()
        if field not in known:
            continue  # other tools (SDK, tests, scripts) own further PROVGRAPH_* names
        if value != "":
            values[field] = value
    try:
        settings = Settings.model_validate(values)
    except PydanticValidationError as exc:
        first = exc.errors(include_url=False)[0]
        variable = PREFIX + str(first["loc"][0]).upper()
        raise ConfigurationError(f"{variable}: {first['msg']}") from exc
    _ = settings.sentinel_address  # parsed now: a Sentinel URL without its master stops start-up
    return settings
