"""`python -m ohana.spark`, and the script `spark-submit` runs
(`spark-submit .../ohana/spark/__main__.py dedupe IN OUT`): the needed
packages are checked first (a missing one is named, exit 2)."""

import sys


def _run() -> int:
    from ohana.spark._deps import message, missing

    names = missing()
    if names:
        print(f"python -m ohana.spark: {message(names)}", file=sys.stderr)
        return 2
    from ohana.spark.cli import main

    return main()


if __name__ == "__main__":
    sys.exit(_run())
