"""The Python quick start (Sources/Ohana/Ohana.docc/Python.md) runs and prints
what the article shows."""

import contextlib
import io
import os
import re

import pytest

from conftest import ROOT


def quick_start():
    text = (ROOT / "Sources" / "Ohana" / "Ohana.docc" / "Python.md").read_text(encoding="utf-8")
    section = text[text.index("### Quick start in Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    output = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    return code, output


def test_quick_start_prints_its_output():
    pytest.importorskip("duckdb")
    code, expected = quick_start()
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "Python.md quick start", "exec"), {"__name__": "quickstart"})
    finally:
        os.chdir(cwd)
    assert out.getvalue() == expected
