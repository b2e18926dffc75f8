"""ohana.set_threads: the one worker-count setting of the engine, as the
command line's --threads. The oracle for "same answer at any count" is the
run at one thread; the setting itself is checked against the engine's own
report (ohana.threads()) and against bad values."""

import pytest

import ohana
from conftest import SAMPLE


@pytest.fixture(autouse=True)
def default_threads():
    yield
    ohana.set_threads(None)


def test_set_threads_is_what_the_engine_uses():
    ohana.set_threads(3)
    assert ohana.threads() == 3
    ohana.set_threads(1)
    assert ohana.threads() == 1
    ohana.set_threads(None)
    assert ohana.threads() >= 1


@pytest.mark.parametrize("bad", [0, -2, 2.5, "4", True])
def test_bad_counts_are_refused(bad):
    before = ohana.threads()
    with pytest.raises(ValueError, match="threads must be a whole number"):
        ohana.set_threads(bad)
    assert ohana.threads() == before


def test_same_clusters_and_sort_at_every_count():
    table = ohana.read_table(SAMPLE)
    results = []
    for n in (1, 2, 3, 7):
        ohana.set_threads(n)
        merged, clusters = table.dedupe()
        ordered = merged.sort(by="family")
        results.append((ordered.to_arrow().to_pylist(), clusters.to_pylist()))
    assert len(results[0][1]) > 0
    for r in results[1:]:
        assert r == results[0]
