"""What the Spark job imports beyond `ohana` itself, checked before anything
else runs, so a missing package is named with the command that installs it
(exit 2) instead of a traceback from deep inside PySpark."""

from __future__ import annotations

import importlib.util
from typing import List, Tuple

# (module, pip name, lowest version the job runs with). PySpark's Arrow
# paths (mapInArrow, pandas conversion) need pandas and pyarrow too, and
# import them only when first used, so they are checked here.
NEEDED: Tuple[Tuple[str, str, str], ...] = (
    ("pyspark", "pyspark", "3.5"),
    ("pandas", "pandas", "2.2"),
    ("numpy", "numpy", "1.22"),
    ("pyarrow", "pyarrow", "14"),
)

INSTALL = "pip install 'ohana[spark]'"


def missing() -> List[str]:
    """The pip names of the needed packages that cannot be imported."""
    return [pip for module, pip, _ in NEEDED if importlib.util.find_spec(module) is None]


def message(names: List[str]) -> str:
    listed = ", ".join(names)
    return (
        f"ohana.spark needs {listed}, which {'is' if len(names) == 1 else 'are'} not installed in this Python "
        f"({INSTALL} installs everything the Spark job imports; a Java runtime, 17 or later, is needed too)"
    )
