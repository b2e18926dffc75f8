"""Memory is given back: a loop of reads (each exported to pyarrow and
dropped) does not keep growing the process."""

import gc

import ohana
from conftest import SAMPLE


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def one_round() -> int:
    t = ohana.read([SAMPLE] * 4)
    f = ohana.read_table([SAMPLE] * 4).normalize_phones().fields()
    return t.num_rows + f.num_rows


def test_fifty_reads_do_not_grow():
    for _ in range(10):  # warm up: allocator pools, pyarrow's memory pool
        one_round()
    gc.collect()
    after_warmup = rss_kib()
    for _ in range(50):
        one_round()
    gc.collect()
    grown = rss_kib() - after_warmup
    # One round holds a few MB; leaking each round's tables would add 50x that.
    assert grown < 8 * 1024, f"RSS grew by {grown} KiB over 50 reads"


def test_a_held_batch_outlives_its_engine_table():
    t = ohana.read_table(SAMPLE)
    contacts = t.contacts()
    del t
    gc.collect()
    contacts.validate(full=True)
    assert contacts.num_rows == 1000
