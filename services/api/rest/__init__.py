"""REST routes: event ingestion, health, metrics, exports."""
