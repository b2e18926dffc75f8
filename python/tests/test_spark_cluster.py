"""The Spark job on a real (small) cluster: Spark's standalone master and
two workers started as separate processes on 127.0.0.1, the binary wheel
installed into a virtual environment that `venv-pack` packs and
`spark-submit --archives` ships to the executors, and the job submitted
with `spark-submit` (Sources/Ohana/Ohana.docc/Spark.md).

It checks that the engine ran in the executors, not in the driver: the
read tasks' process ids differ from the driver's, and the `ohana` they
imported lies under the archive the executors unpacked (`environment/`).
Each task's engine used the task's CPUs (`spark.task.cpus` = 2), not the
host's. The answer is the one machine's: the same clusters, ids included,
and byte-identical merged NDJSON as `ohana dedupe` on the same file.

Needs the wheel (`python python/build_wheel.py`; `.ci/run` builds it and
sets OHANA_WHEEL), Java 17+, PySpark in this environment, and PyPI for the
packed environment's pyarrow, numpy and pandas. Without a wheel the test
is skipped, and says so."""

import csv
import glob
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

from conftest import ROOT, run_cli

if os.environ.get("OHANA_SKIP_SPARK") == "1":
    pytest.skip("OHANA_SKIP_SPARK=1: the Spark cluster test is NOT run", allow_module_level=True)

import pyspark  # noqa: E402  (a missing PySpark fails here, loudly)


def wheel_path():
    if os.environ.get("OHANA_WHEEL"):
        return pathlib.Path(os.environ["OHANA_WHEEL"])
    found = sorted(glob.glob(str(ROOT / "python" / "dist" / "ohana-*-py3-none-manylinux_*.whl")), key=os.path.getmtime)
    return pathlib.Path(found[-1]) if found else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, seconds=90):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


@pytest.fixture(scope="module")
def packed_env(tmp_path_factory):
    """A virtual environment holding the wheel (and what it imports on an
    executor), packed by venv-pack."""
    wheel = wheel_path()
    if wheel is None or not wheel.exists():
        pytest.skip("NO WHEEL: the cluster test is NOT run (build one: python python/build_wheel.py, or set OHANA_WHEEL)")
    work = tmp_path_factory.mktemp("env")
    env = work / "env"
    # pip must see nothing of this checkout (a PYTHONPATH to python/ holds
    # ohana's egg-info, and pip would take the wheel as installed).
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "OHANA_FFI_LIBRARY", "VIRTUAL_ENV")}
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, env=clean)
    subprocess.run([str(env / "bin" / "pip"), "install", "-q", str(wheel), "pandas>=2.2"], check=True, env=clean)
    listed = subprocess.run([str(env / "bin" / "python"), "-c", "import ohana; print(ohana.__file__)"], check=True, env=clean,
                            capture_output=True, text=True).stdout
    assert listed.startswith(str(env)), listed
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "venv-pack"], check=True)
    archive = work / "env.tar.gz"
    subprocess.run([sys.executable, "-m", "venv_pack", "-p", str(env), "-o", str(archive), "-q"], check=True)
    return archive


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A standalone master and two workers (2 cores, 1 GiB each), as
    separate processes on 127.0.0.1; stopped after the test."""
    home = pathlib.Path(pyspark.__file__).parent
    work = tmp_path_factory.mktemp("cluster")
    env = dict(os.environ, SPARK_HOME=str(home), SPARK_LOCAL_IP="127.0.0.1", SPARK_NO_DAEMONIZE="1",
               SPARK_LOG_DIR=str(work / "logs"), SPARK_WORKER_DIR=str(work / "work"))
    # The workers (and so the executors) see nothing of this machine's
    # ohana: only what the archive brings.
    for name in ("PYSPARK_SUBMIT_ARGS", "OHANA_FFI_LIBRARY", "PYTHONPATH", "PYSPARK_PYTHON", "VIRTUAL_ENV"):
        env.pop(name, None)
    port = free_port()
    spark_class = str(home / "bin" / "spark-class")
    procs = []
    logs = []

    def start(*args, log):
        f = open(work / log, "w")
        logs.append(f)
        procs.append(subprocess.Popen([spark_class, *args], env=env, stdout=f, stderr=subprocess.STDOUT, start_new_session=True))

    start("org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(free_port()), log="master.log")
    try:
        wait_for(port)
        for i in range(2):
            start("org.apache.spark.deploy.worker.Worker", f"spark://127.0.0.1:{port}", "--host", "127.0.0.1", "--cores", "2",
                  "--memory", "1536m", "--webui-port", str(free_port()), "--work-dir", str(work / f"worker{i}"), log=f"worker{i}.log")
        # Both workers registered with the master.
        end = time.monotonic() + 90
        while (work / "master.log").read_text().count("Registering worker") < 2:
            if time.monotonic() > end:
                raise RuntimeError("the workers did not register:\n" + (work / "master.log").read_text()[-3000:])
            time.sleep(0.5)
        yield f"spark://127.0.0.1:{port}", env, work
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        for f in logs:
            f.close()


def test_spark_submit_to_standalone_workers_equals_one_machine(cli, packed_env, cluster, tmp_path):
    master, env, work = cluster
    book = tmp_path / "book.vcf"
    run_cli(cli, "generate", "--contacts", "3000", "--seed", "35", "--dup-rate", "0.2", "-o", str(book))
    nd = tmp_path / "book.ndjson"
    run_cli(cli, "convert", str(book), "-o", str(nd))
    one_merged = tmp_path / "one.ndjson"
    one_clusters = tmp_path / "one.csv"
    subprocess.run([str(cli), "dedupe", str(nd), "-o", str(one_merged), "--clusters", str(one_clusters), "-q"], check=True)

    import ohana.spark

    main = pathlib.Path(ohana.spark.__file__).parent / "__main__.py"
    out = tmp_path / "out"
    submit = [
        str(pathlib.Path(pyspark.__file__).parent / "bin" / "spark-submit"),
        "--master", master, "--deploy-mode", "client",
        "--archives", f"{packed_env}#environment",
        "--conf", "spark.pyspark.python=./environment/bin/python",
        "--conf", f"spark.pyspark.driver.python={sys.executable}",
        "--conf", "spark.executor.cores=2", "--conf", "spark.task.cpus=2", "--conf", "spark.executor.memory=1g",
        "--conf", "spark.ui.enabled=false",
        str(main), "dedupe", str(nd), str(out), "--ndjson", "--split-mb", "0.5",
    ]
    # The driver runs this Python (its ohana, with OHANA_FFI_LIBRARY or
    # PYTHONPATH if the tests were given them); the executors the archive's.
    driver_env = dict(env)
    for name in ("OHANA_FFI_LIBRARY", "PYTHONPATH"):
        if name in os.environ:
            driver_env[name] = os.environ[name]
    done = subprocess.run(submit, env=driver_env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (done.stdout[-3000:], "\n".join(l for l in done.stderr.splitlines() if " INFO " not in l)[-6000:])
    report = json.loads((out / "report.json").read_text())

    # The engine ran in the executors: other processes than the driver, with
    # the ohana of the shipped archive, each using the task's 2 CPUs.
    driver_pid = report["driver"]["pid"]
    assert report["homes"] >= 2, "the input was not cut into several pieces"
    assert report["workers"], "no read task reported its process"
    for w in report["workers"]:
        assert w["pid"] != driver_pid
        assert "/environment/" in w["ohana"], w["ohana"]
        assert not w["ohana"].startswith(str(pathlib.Path(sys.executable).parents[1])), w["ohana"]
        assert w["threads"] == 2
    executor_dirs = glob.glob(str(work / "worker*" / "app-*" / "*"))
    assert executor_dirs, "no executor ran on the standalone workers"
    assert any(w["ohana"].startswith(d) for w in report["workers"] for d in executor_dirs)

    # The one machine's answer.
    with open(one_clusters) as f:
        want = {r["uid"]: r["cluster_id"] for r in csv.DictReader(f)}
    import pyarrow.parquet as pq

    t = pq.read_table(out / "clusters").to_pydict()
    assert dict(zip(t["uid"], t["cluster_id"])) == want
    merged = []
    for part in sorted((out / "merged-ndjson").glob("part-*")):
        merged += part.read_text().splitlines()
    assert merged == one_merged.read_text().splitlines()
    assert report["clusters"] > 200
