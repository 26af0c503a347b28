"""Use cases: the application layer, framework-free."""
