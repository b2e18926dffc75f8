"""`ohana.read` of a CardDAV URL (issue 35) against real servers: Xandikos
(no login) and Radicale (basic auth), started on 127.0.0.1 from the Python
that $OHANA_DAV_PYTHON names (.ci/run makes one with both). Without it the
tests are skipped, loudly; with OHANA_REQUIRE_DAV=1 they fail instead.

The oracle: the same cards read from a file by `ohana.read`, and the
`ohana` command line reading the same URL."""

import base64
import json
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

import ohana
from conftest import cli_path

DAV_PYTHON = os.environ.get("OHANA_DAV_PYTHON")
REQUIRE_DAV = os.environ.get("OHANA_REQUIRE_DAV") == "1"


def _need_servers():
    if DAV_PYTHON and os.access(DAV_PYTHON, os.X_OK):
        return DAV_PYTHON
    message = "CardDAV tests NOT RUN: set OHANA_DAV_PYTHON to a Python with xandikos and radicale (pip)"
    if REQUIRE_DAV:
        pytest.fail(message + " (OHANA_REQUIRE_DAV=1)", pytrace=False)
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    def __init__(self, args, port):
        self.port = port
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/", method="OPTIONS"), timeout=2)
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server on port {port} did not start")

    def stop(self):
        self.process.kill()
        self.process.wait()


def _put(url, text, auth=None):
    headers = {"Content-Type": "text/vcard"}
    if auth:
        headers["Authorization"] = auth
    urllib.request.urlopen(urllib.request.Request(url, data=text.encode(), method="PUT", headers=headers))


def _cards(path):
    with open(path, encoding="utf-8", newline="") as f:
        return re.findall(r"BEGIN:VCARD.*?END:VCARD\r\n", f.read(), re.S)


@pytest.fixture
def book(tmp_path):
    path = tmp_path / "book.vcf"
    subprocess.run(
        [str(cli_path()), "generate", "--contacts", "120", "--seed", "3", "--dup-rate", "0.2", "--version", "4.0", "-o", str(path), "-q"],
        check=True,
    )
    return path


def test_xandikos_book_reads_as_its_file(tmp_path, book):
    python = _need_servers()
    port = _free_port()
    server = _Server([python, "-m", "xandikos", "serve", "--defaults", "-d", str(tmp_path / "dav"), "-l", "127.0.0.1", "-p", str(port)], port)
    try:
        base = f"http://127.0.0.1:{port}/"
        for i, card in enumerate(_cards(book)):
            _put(f"{base}user/contacts/addressbook/c{i}.vcf", card)
        from_server = ohana.read(base)
        from_file = ohana.read(str(book))
        assert from_server.num_rows == from_file.num_rows == 120
        assert sorted(from_server.column("uid").to_pylist()) == sorted(from_file.column("uid").to_pylist())
        # Field for field the same contacts, the source and the line where
        # each starts aside (the server lists the cards in its own order).
        def by_uid(t):
            rows = t.drop_columns(["source", "sourceLine"]).to_pylist()
            for r in rows:
                for f in (r.get("fields") or []) + (r.get("addresses") or []):
                    f.pop("source", None)
            return {r["uid"]: r for r in rows}
        assert by_uid(from_server) == by_uid(from_file)
        assert set(from_server.column("source").to_pylist()) == {f"{base}user/contacts/addressbook/"}
        # The command line reads the same contacts from the URL.
        out = subprocess.run([str(cli_path()), "convert", base, "-o", "-", "--to", "ndjson", "-q"], check=True, capture_output=True, text=True).stdout
        assert sorted(json.loads(line)["uid"] for line in out.splitlines()) == sorted(from_server.column("uid").to_pylist())
        # A URL among files is refused; plain http to another machine too.
        with pytest.raises(ValueError):
            ohana.read([base, str(book)])
        with pytest.raises(ohana.OhanaError) as e:
            ohana.read("http://192.0.2.1/")
        assert e.value.code == ohana.ErrorCode.ARGUMENT and "plain http" in e.value.reason
    finally:
        server.stop()


def test_radicale_login(tmp_path, monkeypatch):
    python = _need_servers()
    port = _free_port()
    (tmp_path / "users").write_text("ann:right-pass\n")
    server = _Server(
        [python, "-m", "radicale", "--config", "", "--server-hosts", f"127.0.0.1:{port}", "--storage-filesystem-folder", str(tmp_path / "c"),
         "--auth-type", "htpasswd", "--auth-htpasswd-filename", str(tmp_path / "users"), "--auth-htpasswd-encryption", "plain"],
        port,
    )
    try:
        base = f"http://127.0.0.1:{port}/"
        auth = "Basic " + base64.b64encode(b"ann:right-pass").decode()
        mkcol = (
            '<?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>'
            "<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype></d:prop></d:set></d:mkcol>"
        )
        urllib.request.urlopen(urllib.request.Request(base + "ann/contacts/", data=mkcol.encode(), method="MKCOL",
                                                      headers={"Authorization": auth, "Content-Type": "application/xml"}))
        for i in range(3):
            _put(f"{base}ann/contacts/{i}.vcf", f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:r{i}\r\nFN:Person {i}\r\nN:{i};Person;;;\r\nEND:VCARD\r\n", auth)
        (tmp_path / "right").write_text("right-pass\n")
        (tmp_path / "wrong").write_text("wrong-pass\n")
        t = ohana.read(base, user="ann", password_file=str(tmp_path / "right"))
        assert sorted(t.column("uid").to_pylist()) == ["r0", "r1", "r2"]
        monkeypatch.setenv("OHANA_CARDDAV_PASSWORD", "right-pass")
        assert ohana.read(base, user="ann").num_rows == 3
        monkeypatch.delenv("OHANA_CARDDAV_PASSWORD")
        with pytest.raises(ohana.OhanaError) as e:
            ohana.read(base, user="ann", password_file=str(tmp_path / "wrong"))
        assert e.value.code == ohana.ErrorCode.LOGIN and e.value.code.exit_status == 77
        assert "ann" in e.value.reason and "wrong-pass" not in e.value.reason and "right-pass" not in e.value.reason
        # ~/.netrc gives user and password.
        monkeypatch.setenv("HOME", str(tmp_path))
        (tmp_path / ".netrc").write_text("machine 127.0.0.1 login ann password right-pass\n")
        os.chmod(tmp_path / ".netrc", 0o600)
        assert ohana.read(base).num_rows == 3
        with pytest.raises(ValueError):
            ohana.read(base, user="bob")
    finally:
        server.stop()


def test_radicale_over_tls_with_a_private_ca(tmp_path):
    python = _need_servers()
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(tmp_path / "ca.key"), "-out", str(tmp_path / "ca.pem"),
            "-days", "2", "-subj", "/CN=ohana test CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(tmp_path / "server.key"), "-out", str(tmp_path / "server.csr"),
            "-subj", "/CN=127.0.0.1")
    (tmp_path / "ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", str(tmp_path / "server.csr"), "-CA", str(tmp_path / "ca.pem"), "-CAkey", str(tmp_path / "ca.key"),
            "-CAcreateserial", "-out", str(tmp_path / "server.pem"), "-days", "2", "-extfile", str(tmp_path / "ext"))
    (tmp_path / "users").write_text("ann:pw\n")
    (tmp_path / "pw").write_text("pw\n")
    auth = {"Authorization": "Basic " + base64.b64encode(b"ann:pw").decode()}
    port = _free_port()
    process = subprocess.Popen(
        [python, "-m", "radicale", "--config", "", "--server-hosts", f"127.0.0.1:{port}", "--storage-filesystem-folder", str(tmp_path / "c"),
         "--auth-type", "htpasswd", "--auth-htpasswd-filename", str(tmp_path / "users"), "--auth-htpasswd-encryption", "plain", "--server-ssl", "--server-certificate", str(tmp_path / "server.pem"), "--server-key", str(tmp_path / "server.key")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import ssl
        context = ssl.create_default_context(cafile=str(tmp_path / "ca.pem"))
        base = f"https://127.0.0.1:{port}/"
        for _ in range(100):
            try:
                urllib.request.urlopen(urllib.request.Request(base, method="OPTIONS"), context=context, timeout=2)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.1)
        mkcol = (
            '<?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>'
            "<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype></d:prop></d:set></d:mkcol>"
        )
        urllib.request.urlopen(urllib.request.Request(base + "ann/book/", data=mkcol.encode(), method="MKCOL",
                                                      headers={"Content-Type": "application/xml", **auth}), context=context)
        card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:t1\r\nFN:Tina Sal\r\nN:Sal;Tina;;;\r\nEND:VCARD\r\n"
        urllib.request.urlopen(urllib.request.Request(base + "ann/book/t1.vcf", data=card.encode(), method="PUT",
                                                      headers={"Content-Type": "text/vcard", **auth}), context=context)
        login = {"user": "ann", "password_file": str(tmp_path / "pw")}
        t = ohana.read(base + "ann/book/", ca_file=str(tmp_path / "ca.pem"), **login)
        assert t.column("uid").to_pylist() == ["t1"]
        # The system's trust store does not know the private CA.
        with pytest.raises(ohana.OhanaError) as e:
            ohana.read(base + "ann/book/", **login)
        assert e.value.code == ohana.ErrorCode.SERVER and "CERTIFICATE_VERIFY_FAILED" in e.value.reason
    finally:
        process.kill()
        process.wait()
