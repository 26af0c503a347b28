"""GraphQL input types, one per file."""
