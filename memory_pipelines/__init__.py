"""memory_pipelines: long-term memory for AI agents, as a Dagster pipeline over Postgres."""

__version__ = "0.1.0"
