"""GraphQL for dashboards and auditors (Strawberry): one type per file under ``types/``."""
