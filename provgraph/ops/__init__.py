"""Run the project's real backing services on this machine: Neo4j 5.26 and Redis.

No Docker: Neo4j is assembled from Maven Central and run on the local JDK,
Redis comes from apt.  Importing this package needs neither the neo4j driver
nor redis-py; they are imported inside the functions that talk to the servers.
"""

from __future__ import annotations

from provgraph.ops.errors import (
    AuthSetupError,
    InstallError,
    OpsError,
    StartError,
    ToolMissingError,
)
from provgraph.ops.neo4j_server import (
    Neo4jHandle,
    ensure_neo4j_installed,
    neo4j_status,
    start_neo4j,
    stop_neo4j,
)
from provgraph.ops.redis_server import (
    RedisHandle,
    ensure_redis_installed,
    redis_status,
    start_redis,
    stop_redis,
)
from provgraph.ops.status import ServiceStatus

__all__ = [
    "AuthSetupError",
    "InstallError",
    "Neo4jHandle",
    "OpsError",
    "RedisHandle",
    "ServiceStatus",
    "StartError",
    "ToolMissingError",
    "ensure_neo4j_installed",
    "ensure_redis_installed",
    "neo4j_status",
    "redis_status",
    "start_neo4j",
    "start_redis",
    "stop_neo4j",
    "stop_redis",
]
