"""Errors are Python exceptions with the line number and the reason."""

import pytest

import ohana
from conftest import SAMPLE


def test_malformed_file_strict_raises_with_its_line(tmp_path):
    bad = tmp_path / "bad.vcf"
    bad.write_text("BEGIN:VCARD\nVERSION:4.0\nFN:One\nEND:VCARD\nBEGIN:VCARD\nVERSION:4.0\nFN:Two\nNOCOLONHERE\nEND:VCARD\n")
    with pytest.raises(ohana.OhanaError) as e:
        ohana.read([bad], strict=True)
    assert e.value.line == 8
    assert e.value.reason
    assert "line 8" in str(e.value)
    # Not strict: the bad line is reported and the cards are read.
    t = ohana.read_table([bad])
    assert len(t) == 2
    assert [p.line for p in t.problems] == [8]
    assert t.problems[0].severity == "warning"


def test_malformed_ndjson_gives_its_line(tmp_path):
    bad = tmp_path / "bad.ndjson"
    bad.write_text('{"fullName":"a"}\n{"fullName":"b"}\n{"fullName": oops}\n')
    with pytest.raises(ohana.OhanaError) as e:
        ohana.read(bad, strict=True)
    assert e.value.line == 3


def test_missing_file_is_an_io_error(tmp_path):
    with pytest.raises(ohana.OhanaError) as e:
        ohana.read([tmp_path / "nope.vcf"])
    assert e.value.code == 1
    assert e.value.line is None


def test_bad_arguments_are_errors():
    t = ohana.read_table(SAMPLE)
    with pytest.raises(ohana.OhanaError):
        t.normalize_phones(region="XX")
    with pytest.raises(ohana.OhanaError):
        t.normalize_phones(formats=("e165",))
    with pytest.raises(ohana.OhanaError):
        t.sort(by="shoe size")
    with pytest.raises(ohana.OhanaError):
        ohana.read(SAMPLE, format="docx")
    with pytest.raises(TypeError):
        ohana.sort([1, 2, 3])
