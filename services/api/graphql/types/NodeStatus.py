"""GraphQL enum ``NodeStatus``: how a step ended (the domain enum, registered as-is)."""

import strawberry

from provgraph.graph import NodeStatus

strawberry.enum(NodeStatus, name="NodeStatus", description="How the step a node records ended.")

__all__ = ["NodeStatus"]
