"""Where memory_pipelines keeps its files: MEMORY_HOME."""

from __future__ import annotations

import os
from pathlib import Path


def memory_home() -> Path:
    """MEMORY_HOME, or ~/.memory_pipelines: the embedded server's data, Dagster's home and the
    exported query model."""
    return Path(os.environ.get("MEMORY_HOME") or Path.home() / ".memory_pipelines").expanduser()
