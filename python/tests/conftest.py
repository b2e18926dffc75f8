"""Shared fixtures: the repository, its bundled samples and the `ohana`
command line, whose output (NDJSON, CSV) is the oracle the Python side is
compared with."""

import json
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "datasets" / "sample-1000.vcf"
EXAMPLE = ROOT / "datasets" / "ohana-example.vcf"


def cli_path() -> pathlib.Path:
    """The `ohana` tool: $OHANA_CLI, else the repository's release or debug
    build (CI runs `swift test` first, which builds it), else on PATH."""
    if os.environ.get("OHANA_CLI"):
        return pathlib.Path(os.environ["OHANA_CLI"])
    for p in (ROOT / ".build" / "release" / "ohana", ROOT / ".build" / "debug" / "ohana"):
        if p.exists():
            return p
    found = shutil.which("ohana")
    if found:
        return pathlib.Path(found)
    raise RuntimeError("the ohana command line is needed as the tests' oracle: build it (swift build --product ohana) or set OHANA_CLI")


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    return cli_path()


def run_cli(cli: pathlib.Path, *args: str) -> str:
    done = subprocess.run([str(cli), *args, "-q"], check=True, capture_output=True, text=True)
    return done.stdout


def cli_ndjson(cli: pathlib.Path, *args: str) -> list:
    """The contacts the command line writes as NDJSON for `args`."""
    return [json.loads(line) for line in run_cli(cli, *args, "-o", "-", "--to", "ndjson").splitlines() if line]


@pytest.fixture(scope="session")
def sample_ndjson(cli) -> list:
    return cli_ndjson(cli, "convert", str(SAMPLE))


@pytest.fixture(scope="module")
def spark():
    """A local[2] SparkSession for a module of the Spark job's tests
    (test_spark.py, test_spark_tables.py; each imports PySpark itself at
    the top, so that a missing PySpark fails loudly there)."""
    from ohana import spark as ospark

    s = ospark.session("local[2]", app="ohana-tests")
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()
