"""The GIL is released during engine work: a read blocks on a FIFO that
only the Python main thread feeds. Were the GIL held through the call, the
main thread could never write and the read would never end; the scenario
runs in a child process with a time limit, so that failure is a failed
test, not a hung one."""

import os
import subprocess
import sys
import textwrap

from conftest import SAMPLE

SCENARIO = textwrap.dedent("""
    import os, sys, threading, ohana
    fifo, sample = sys.argv[1], sys.argv[2]
    result = {}
    def reader():
        result["table"] = ohana.read([fifo], format="vcard")   # blocks in the engine until fed
    t = threading.Thread(target=reader)
    t.start()
    with open(fifo, "wb") as w, open(sample, "rb") as r:   # the main thread feeds it
        w.write(r.read())
    t.join()
    print(result["table"].num_rows)
""")


def test_engine_calls_release_the_gil(tmp_path):
    fifo = tmp_path / "contacts.vcf"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-c", SCENARIO, str(fifo), str(SAMPLE)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1000"
