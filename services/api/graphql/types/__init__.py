"""GraphQL object types, one per file, each file named after its type."""
