"""The memory console under /console: server-rendered pages for an organisation's
administrators, served by the same app as the HTTP API (same audit, same ceilings)."""

from memory_pipelines.service.console.pages import install

__all__ = ["install"]
