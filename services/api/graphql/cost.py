"""Query cost: how many objects a GraphQL query would resolve, estimated before it runs.

Depth and alias limits do not stop a shallow query that multiplies pages:
``sessions(first: 100) { … nodes(first: 1000) { parents { id } children { id } } }``
is five levels deep and asks for about two million objects, each a store
round trip or a row. So every operation gets a cost, computed from the
document alone, and is refused before any resolver runs when the cost is
over the budget (``PROVGRAPH_GRAPHQL_MAX_COST``).

The estimate: each field returning an object (or a list of objects) costs
the number of objects it would return, multiplied along its path.

- A list field with a page argument (``first``, ``limit``, ``maxPaths``)
  returns that many; an object field with one (a Relay connection,
  ``attribution``, ``lineage``) passes it to the lists directly below it
  (``edges``, ``paths``, ``nodes``).
- A page argument left null counts as :data:`NULL_PAGE` (the default page size).
- Any other list counts :data:`DEFAULT_FANOUT` items.
- Scalars and enums cost nothing.

Fragments are costed once per use site shape (memoised), so a document of
nested fragment spreads cannot make the estimate itself expensive.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLList,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    get_named_type,
    get_nullable_type,
    is_leaf_type,
)
from graphql.execution import ExecutionResult
from graphql.execution.values import get_argument_values, get_variable_values
from strawberry.extensions import SchemaExtension

PAGE_ARGUMENTS = ("first", "limit", "maxPaths")
DEFAULT_FANOUT = 10
NULL_PAGE = 20
DEFAULT_MAX_COST = 50_000


@dataclass
class _Walk:
    schema: GraphQLSchema
    fragments: Mapping[str, FragmentDefinitionNode]
    variables: Any  # graphql-core's coerced VariableValues
    memo: dict[tuple[str, int | None], int] = field(default_factory=dict)
    visiting: set[str] = field(default_factory=set)

    def unit_cost(
        self, selections: SelectionSetNode, parent: GraphQLNamedType, pending: int | None
    ) -> int:
        """Objects resolved below ONE object of type ``parent`` by ``selections``."""
        total = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                total += self._field(selection, parent, pending)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                target = self.schema.get_type(condition.name.value) if condition else parent
                total += self.unit_cost(selection.selection_set, target or parent, pending)
            elif isinstance(selection, FragmentSpreadNode):
                total += self._spread(selection.name.value, parent, pending)
        return total

    def _field(self, node: FieldNode, parent: GraphQLNamedType, pending: int | None) -> int:
        fields = parent.fields if isinstance(parent, GraphQLObjectType) else {}
        definition = getattr(parent, "fields", fields).get(node.name.value)
        if definition is None:  # __typename and introspection meta fields
            return 0
        named = get_named_type(definition.type)
        if is_leaf_type(named):
            return 0
        page = self._page(node, definition)
        many = isinstance(get_nullable_type(definition.type), GraphQLList)
        fanout = (page or pending or DEFAULT_FANOUT) if many else 1
        below = (
            self.unit_cost(node.selection_set, named, None if many else page)
            if node.selection_set
            else 0
        )
        return fanout * (1 + below)

    def _spread(self, name: str, parent: GraphQLNamedType, pending: int | None) -> int:
        fragment = self.fragments.get(name)
        if fragment is None or name in self.visiting:  # cycles are a validation error anyway
            return 0
        key = (name, pending)
        if key not in self.memo:
            target = self.schema.get_type(fragment.type_condition.name.value) or parent
            self.visiting.add(name)
            self.memo[key] = self.unit_cost(fragment.selection_set, target, pending)
            self.visiting.discard(name)
        return self.memo[key]

    def _page(self, node: FieldNode, definition: GraphQLField) -> int | None:
        names = [name for name in PAGE_ARGUMENTS if name in definition.args]
        if not names:
            return None
        try:
            values = get_argument_values(definition, node, self.variables)
        except GraphQLError:  # execution reports bad arguments itself
            return None
        for name in names:
            value = values.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                return max(value, 0)
        return NULL_PAGE


def _operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode | None:
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if name is None:
        return operations[0] if len(operations) == 1 else None
    return next((o for o in operations if o.name and o.name.value == name), None)


def estimate_cost(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation_name: str | None = None,
    variables: Mapping[str, Any] | None = None,
) -> int:
    """The estimated objects the operation resolves (0 when it cannot be told apart)."""
    operation = _operation(document, operation_name)
    if operation is None:
        return 0
    definitions = operation.variable_definitions or ()
    coerced = get_variable_values(schema, definitions, dict(variables or {}))
    if isinstance(coerced, list):  # bad variables: execution refuses the operation anyway
        return 0
    root = schema.get_root_type(operation.operation)
    if root is None:
        return 0
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    return _Walk(schema, fragments, coerced).unit_cost(operation.selection_set, root, None)


def cost_error(cost: int, budget: int) -> GraphQLError:
    return GraphQLError(
        f"query cost {cost:,} exceeds the budget of {budget:,} (PROVGRAPH_GRAPHQL_MAX_COST): "
        f"the cost estimates the objects the query resolves, page sizes (first, limit, "
        f"maxPaths) multiplied along each path and {DEFAULT_FANOUT} for a list without one; "
        "ask for smaller pages or fewer nested lists",
        extensions={"code": "QUERY_TOO_COSTLY", "cost": cost, "budget": budget},
    )


class QueryCostLimiter(SchemaExtension):
    """Refuse an operation whose estimated cost is over the app's budget, before execution."""

    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        state = getattr(context.context, "state", None)
        budget = getattr(getattr(state, "settings", None), "graphql_max_cost", DEFAULT_MAX_COST)
        if document is not None:
            graphql_schema = context.schema._schema
            cost = estimate_cost(
                graphql_schema, document, context.operation_name, context.variables
            )
            if cost > budget:
                context.result = ExecutionResult(data=None, errors=[cost_error(cost, budget)])
        yield
