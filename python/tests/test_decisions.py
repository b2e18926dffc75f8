"""dedupe(..., decisions=...) (issue 34): a reviewer's decisions are obeyed
whatever the scores, checked against what each decision says; the clusters
with the same decisions file equal the command line's (`ohana dedupe
--decisions`, the oracle for the rest of the partition)."""

import collections
import csv
import io
import json

import pytest

import ohana
from conftest import SAMPLE, run_cli


def _clusters(clusters):
    uid = clusters.column("uid").to_pylist()
    cid = clusters.column("dedupe.cluster").to_pylist()
    return dict(zip(uid, cid))


def _partition(assignment):
    groups = collections.defaultdict(set)
    for u, c in assignment.items():
        groups[c].add(u)
    return sorted(sorted(g) for g in groups.values())


def test_a_member_taken_out_and_strangers_joined(tmp_path, cli):
    table = ohana.read_table(SAMPLE)
    _, before = table.dedupe()
    first = _clusters(before)
    members = collections.defaultdict(list)
    for u, c in first.items():
        members[c].append(u)
    big = min((sorted(m) for m in members.values() if len(m) >= 3), key=lambda m: m[0])
    singles = sorted(m[0] for m in members.values() if len(m) == 1)[:2]
    out, rest = big[0], big[1:]
    decisions = [
        {"kind": "different", "uids": [out], "from": rest, "note": "another Kate"},
        {"kind": "same", "uids": singles},
        {"kind": "same", "uids": ["no-such-uid", singles[0]]},
    ]
    with pytest.warns(UserWarning, match="decisions:3"):
        merged, after = table.dedupe(decisions=decisions)
    second = _clusters(after)
    assert all(second[u] != second[out] for u in rest)
    assert len({second[u] for u in rest}) == 1
    assert second[singles[0]] == second[singles[1]]
    assert [p.line for p in merged.problems] == [3]
    # The same decisions as a file, through the command line: the same partition.
    path = tmp_path / "decisions.ndjson"
    path.write_text("".join(json.dumps(d) + "\n" for d in decisions))
    clusters_csv = tmp_path / "c.csv"
    run_cli(cli, "dedupe", str(SAMPLE), "-o", str(tmp_path / "m.vcf"), "--clusters", str(clusters_csv),
            "--decisions", str(path))
    with open(clusters_csv, newline="") as f:
        cli_assignment = {r["uid"]: r["cluster_id"] for r in csv.DictReader(f)}
    assert _partition(cli_assignment) == _partition(second)
    # And from the path in Python.
    with pytest.warns(UserWarning):
        _, again = ohana.dedupe(table, decisions=path)
    assert _clusters(again) == second


def test_a_bad_line_is_a_warning_and_the_rest_is_obeyed(tmp_path):
    table = ohana.read_table(SAMPLE)
    _, before = table.dedupe()
    first = _clusters(before)
    uids = sorted(first)
    path = tmp_path / "d.ndjson"
    path.write_text('not json\n{"kind": "same", "uids": ["%s", "%s"]}\n' % (uids[0], uids[-1]))
    with pytest.warns(UserWarning, match="decisions:1"):
        _, after = table.dedupe(decisions=str(path))
    second = _clusters(after)
    assert second[uids[0]] == second[uids[-1]]
