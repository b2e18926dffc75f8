"""Ohana on Apache Spark: dedupe and normalization past one machine.

The engine does the per-record and per-block work inside Spark tasks;
Spark moves blobs between them. The contacts stay in the partition that
read them (their *home*); what crosses the network is compact: blocking
entries (8 bytes a key), candidate pairs (8 bytes), comparison records
where a pair's second contact lives in another home, the accepted pairs,
and the NDJSON records of contacts that have duplicates, once, for the
merge. Stages, one module each:

- `inputs`: files (the engine's own discovery), splits, line numbers;
- `home`: the read stage, each home's contacts and keys;
- `blocking`: candidate pairs as the one machine makes them;
- `scoring`: each pair scored once, in its first contact's home;
- `components`: connected components of the accepted pairs;
- `merge`: the chaining guard and the merge, per component;
- `output`: part files in input order, put in place at the end;
- `job`: the stages in order and the report;
- `normalize`: phones, folded names and sort keys as DataFrame columns;
- `tables`: a DataFrame or table path in its own columns, deduped and
  handed back as its rows with the cluster columns (`dedupe_table`).

    python -m ohana.spark dedupe INPUT... OUTPUT_DIR [--region US] [--ndjson]
    python -m ohana.spark dedupe people.parquet OUTPUT_DIR [--map given=vn] [--id customer_id]
    python -m ohana.spark normalize INPUT... OUTPUT_DIR [--region US]
"""

from __future__ import annotations

import os
import sys
from typing import Any, Optional

from .. import ErrorCode, OhanaError
from ._deps import message as _message
from ._deps import missing as _missing

__all__ = ["dedupe", "dedupe_table", "normalize", "read", "session", "list_inputs", "model", "SparkReport", "OhanaError", "ErrorCode"]

_absent = _missing()
if _absent:
    # Importing the package works (`python -m ohana.spark` then says what is
    # missing, exit 2); using it raises ImportError naming the packages.
    def __getattr__(name: str) -> Any:
        if name in __all__ and name not in ("OhanaError", "ErrorCode"):
            raise ImportError(_message(_absent))
        raise AttributeError(name)
else:
    from .engine import list_inputs, model  # noqa: F401
    from .job import SparkReport, dedupe  # noqa: F401
    from .normalize import normalize, read  # noqa: F401
    from .tables import dedupe_table  # noqa: F401

# Rows per Arrow batch between Spark and the tasks (normalize, read).
BATCH_ROWS = 8192


def session(master: Optional[str] = None, app: str = "ohana") -> Any:
    """A SparkSession for the job. Under `spark-submit` (the driver started
    by Spark's launcher), the session spark-submit configured: its master,
    memory and archives. Otherwise `master` (default $OHANA_SPARK_MASTER or
    local[*]); in local mode the Python workers run this interpreter."""
    if _absent:
        raise ImportError(_message(_absent))
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app)
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ
    if master or not submitted:
        builder = builder.master(master or os.environ.get("OHANA_SPARK_MASTER", "local[*]"))
    if not submitted:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        # Local mode runs every task in the driver's JVM: give it room
        # (OHANA_SPARK_DRIVER_MEMORY, default 4g; on a cluster set the
        # executors' memory as usual).
        builder = builder.config("spark.driver.memory", os.environ.get("OHANA_SPARK_DRIVER_MEMORY", "4g"))
        builder = builder.config("spark.ui.enabled", os.environ.get("OHANA_SPARK_UI", "false"))
        builder = builder.config("spark.ui.showConsoleProgress", "false")
    builder = builder.config("spark.sql.execution.arrow.maxRecordsPerBatch", str(BATCH_ROWS))
    builder = builder.config("spark.sql.shuffle.partitions", os.environ.get("OHANA_SPARK_PARTITIONS", "8"))
    return builder.getOrCreate()
