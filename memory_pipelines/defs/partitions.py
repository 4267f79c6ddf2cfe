"""One Dagster dynamic partition per store."""

import dagster as dg

stores_partitions = dg.DynamicPartitionsDefinition(name="stores")
