"""CardDAV address books for `ohana.read(URL)`: the cards are fetched here,
with Python's standard library (http.client, ssl, xml.etree), and read by
the engine from memory (`ohana_read_bytes`), as the `ohana` tool reads a URL
(Sources/Ohana/Ohana.docc/CardDAV.md; its Swift client is
Sources/OhanaCardDAV/CardDAVClient.swift, and the two follow the same steps).

Why not the Swift client through the C interface: linking it made the
library carry an HTTP and TLS stack and Foundation's XML and ICU data, and
the wheel 44 MB instead of 19 MB; Python already speaks HTTPS and XML.

Discovery (RFC 6352, 6764): the URL's resourcetype, else its
addressbook-home-set, else the current-user-principal's, else
/.well-known/carddav. Listing by sync-collection (RFC 6578; 507 pages
followed), else PROPFIND Depth 1. Fetching by addressbook-multiget, 200 a
request; a card gone in between is left out. Credentials go to the origin
the run started at only; a redirect elsewhere is refused; a 401 is one
error, never retried.
"""

from __future__ import annotations

import base64
import http.client
import ssl
import urllib.parse
import xml.etree.ElementTree as ET
from typing import Optional

DAV = "DAV:"
CARDDAV = "urn:ietf:params:xml:ns:carddav"
BATCH = 200

PROPFIND_START = (
    '<?xml version="1.0" encoding="utf-8"?>'
    '<d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">'
    "<d:prop><d:resourcetype/><d:current-user-principal/><card:addressbook-home-set/><d:displayname/></d:prop>"
    "</d:propfind>"
)
PROPFIND_ETAGS = (
    '<?xml version="1.0" encoding="utf-8"?>'
    '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>'
)


class CardDAVError(Exception):
    """`kind`: "login", "server" (unreachable, or not CardDAV) or "argument"."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _tag(ns: str, name: str) -> str:
    return "{%s}%s" % (ns, name)


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def redacted(url: str) -> str:
    p = urllib.parse.urlsplit(url)
    host = p.hostname or ""
    if p.port:
        host += f":{p.port}"
    return urllib.parse.urlunsplit((p.scheme, host, p.path, p.query, p.fragment))


def origin(url: str) -> tuple:
    p = urllib.parse.urlsplit(url)
    return (p.scheme.lower(), (p.hostname or "").lower(), p.port or (443 if p.scheme.lower() == "https" else 80))


def is_loopback(url: str) -> bool:
    host = (urllib.parse.urlsplit(url).hostname or "").lower()
    return host in ("localhost", "::1") or host.startswith("127.")


class Client:
    """One connection per origin, kept alive; requests one at a time."""

    def __init__(self, start: str, user: Optional[str], password: Optional[str], ca_file: Optional[str], timeout: float = 60) -> None:
        self.origin = origin(start)
        self.auth = None
        if user is not None:
            self.auth = "Basic " + base64.b64encode(f"{user}:{password or ''}".encode()).decode()
        self.user = user
        # A private CA replaces the system's trust store, as --ca-file does.
        self.context = ssl.create_default_context(cafile=ca_file) if ca_file else ssl.create_default_context()
        self.timeout = timeout
        self.connection = None

    def _connect(self):
        scheme, host, port = self.origin
        if scheme == "https":
            return http.client.HTTPSConnection(host, port, timeout=self.timeout, context=self.context)
        return http.client.HTTPConnection(host, port, timeout=self.timeout)

    def request(self, method: str, url: str, depth: Optional[str] = None, body: Optional[str] = None):
        """(status, headers, body bytes) of one request to the run's origin."""
        if origin(url) != self.origin:
            raise CardDAVError("argument", f"{redacted(url)} is on another server; start there instead")
        p = urllib.parse.urlsplit(url)
        path = (p.path or "/") + (f"?{p.query}" if p.query else "")
        headers = {"User-Agent": "ohana-carddav"}
        if depth is not None:
            headers["Depth"] = depth
        if body is not None:
            headers["Content-Type"] = "application/xml; charset=utf-8"
        if self.auth:
            headers["Authorization"] = self.auth
        data = body.encode() if body is not None else None
        for attempt in (0, 1):
            if self.connection is None:
                self.connection = self._connect()
            try:
                self.connection.request(method, path, body=data, headers=headers)
                r = self.connection.getresponse()
                content = r.read()
                break
            except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected) as e:
                # A kept-alive connection the server closed: once more, new.
                self.connection.close()
                self.connection = None
                if attempt == 1:
                    raise CardDAVError("server", f"{method} {redacted(url)}: {e}") from None
            except (OSError, http.client.HTTPException) as e:
                self.connection.close()
                self.connection = None
                raise CardDAVError("server", f"{method} {redacted(url)}: {e}") from None
        if r.status == 401:
            if self.user is None:
                raise CardDAVError(
                    "login",
                    f"{redacted(url)}: the server asks for a login (give user, and the password by password_file, "
                    "OHANA_CARDDAV_PASSWORD or ~/.netrc)",
                )
            raise CardDAVError("login", f"{redacted(url)}: the server refused the login of user {self.user} (HTTP 401)")
        return r.status, {k.lower(): v for k, v in r.getheaders()}, content

    @staticmethod
    def multistatus(status: int, content: bytes, what: str):
        """[(href, status, {tag: element})], sync-token."""
        if status != 207:
            raise CardDAVError("server", f"{what}: the server answered HTTP {status}, not a WebDAV multistatus")
        try:
            root = ET.fromstring(content)
        except ET.ParseError:
            raise CardDAVError("server", f"{what}: the answer is not XML") from None
        out = []
        for resp in root.findall(_tag(DAV, "response")):
            href = (resp.findtext(_tag(DAV, "href")) or "").strip()
            code = _status(resp.findtext(_tag(DAV, "status")))
            props = {}
            for ps in resp.findall(_tag(DAV, "propstat")):
                ps_code = _status(ps.findtext(_tag(DAV, "status")))
                if ps_code is not None and ps_code != 200:
                    continue
                prop = ps.find(_tag(DAV, "prop"))
                for child in list(prop) if prop is not None else []:
                    props[child.tag] = child
            out.append((href, code, props))
        token = root.findtext(_tag(DAV, "sync-token"))
        return out, (token.strip() if token else None)


def _status(text: Optional[str]) -> Optional[int]:
    if not text:
        return None
    parts = text.split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def address_books(client: Client, start: str, only: Optional[str]) -> list:
    url = start
    tried = set()
    for _ in range(6):
        if url in tried:
            break
        tried.add(url)
        status, headers, content = client.request("PROPFIND", url, "0", PROPFIND_START)
        if 301 <= status <= 308 and "location" in headers:
            url = urllib.parse.urljoin(url, headers["location"])
            continue
        well_known = urllib.parse.urljoin(url, "/.well-known/carddav")
        if status in (404, 405, 501) and url != well_known:
            url = well_known
            continue
        responses, _ = Client.multistatus(status, content, f"PROPFIND {redacted(url)}")
        if not responses:
            break
        _, _, props = responses[0]
        rtype = props.get(_tag(DAV, "resourcetype"))
        if rtype is not None and rtype.find(_tag(CARDDAV, "addressbook")) is not None:
            return [url]
        home = props.get(_tag(CARDDAV, "addressbook-home-set"))
        if home is not None and home.findtext(_tag(DAV, "href")):
            return _books_in(client, urllib.parse.urljoin(url, home.findtext(_tag(DAV, "href")).strip()), only)
        principal = props.get(_tag(DAV, "current-user-principal"))
        if principal is not None and principal.findtext(_tag(DAV, "href")):
            nxt = urllib.parse.urljoin(url, principal.findtext(_tag(DAV, "href")).strip())
            if nxt != url:
                url = nxt
                continue
        if well_known not in tried:
            url = well_known
            continue
        break
    raise CardDAVError("server", f"{redacted(start)}: found no address book there")


def _books_in(client: Client, home: str, only: Optional[str]) -> list:
    status, _, content = client.request("PROPFIND", home, "1", PROPFIND_START)
    responses, _ = Client.multistatus(status, content, f"PROPFIND {redacted(home)}")
    out = []
    for href, _, props in responses:
        rtype = props.get(_tag(DAV, "resourcetype"))
        if rtype is None or rtype.find(_tag(CARDDAV, "addressbook")) is None:
            continue
        url = urllib.parse.urljoin(home, href)
        if only is not None:
            name = props.get(_tag(DAV, "displayname"))
            last = urllib.parse.urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
            if only not in (last, name.text if name is not None else None):
                continue
        out.append(url)
    if not out:
        raise CardDAVError(
            "server", f"{redacted(home)}: " + ("no address book in this home set" if only is None else f"no address book named {only}")
        )
    return sorted(out)


def _sync_body(token: Optional[str]) -> str:
    return (
        '<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:">'
        f"<d:sync-token>{_escape(token or '')}</d:sync-token><d:sync-level>1</d:sync-level>"
        "<d:prop><d:getetag/></d:prop></d:sync-collection>"
    )


def list_cards(client: Client, book: str) -> list:
    """The card URLs of `book`, by sync-collection (pages followed), else PROPFIND."""
    book_path = urllib.parse.urlsplit(book).path
    cards, seen, token = [], set(), None
    for _ in range(10_000):
        status, _, content = client.request("REPORT", book, "1", _sync_body(token))
        if status != 207:
            if token is None and status in (400, 403, 405, 501):
                return _propfind_cards(client, book)
            raise CardDAVError("server", f"REPORT sync-collection {redacted(book)}: HTTP {status}")
        responses, nxt = Client.multistatus(status, content, f"REPORT {redacted(book)}")
        truncated = False
        for href, code, _ in responses:
            url = urllib.parse.urljoin(book, href)
            if urllib.parse.urlsplit(url).path == book_path:
                truncated = truncated or code == 507
                continue
            if code == 404:
                continue
            if url not in seen:
                seen.add(url)
                cards.append(url)
        if truncated and nxt and nxt != token:
            token = nxt
            continue
        return cards
    raise CardDAVError("server", f"REPORT sync-collection {redacted(book)}: no end to the pages")


def _propfind_cards(client: Client, book: str) -> list:
    status, _, content = client.request("PROPFIND", book, "1", PROPFIND_ETAGS)
    responses, _ = Client.multistatus(status, content, f"PROPFIND {redacted(book)}")
    book_path = urllib.parse.urlsplit(book).path
    out = []
    for href, _, props in responses:
        url = urllib.parse.urljoin(book, href)
        rtype = props.get(_tag(DAV, "resourcetype"))
        if urllib.parse.urlsplit(url).path == book_path or (rtype is not None and len(rtype)):
            continue
        out.append(url)
    return out


def fetch(client: Client, book: str, urls: list) -> list:
    """The cards' texts (bytes, CRLF line ends), in the listing's order; a
    card deleted since it was listed is left out."""
    out = []
    for start in range(0, len(urls), BATCH):
        batch = urls[start:start + BATCH]
        body = (
            '<?xml version="1.0" encoding="utf-8"?>'
            '<card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">'
            "<d:prop><d:getetag/><card:address-data/></d:prop>"
            + "".join(f"<d:href>{_escape(urllib.parse.urlsplit(u).path)}</d:href>" for u in batch)
            + "</card:addressbook-multiget>"
        )
        status, _, content = client.request("REPORT", book, "1", body)
        responses, _ = Client.multistatus(status, content, f"REPORT addressbook-multiget {redacted(book)}")
        by_path = {}
        for href, code, props in responses:
            data = props.get(_tag(CARDDAV, "address-data"))
            if code == 404 or data is None or data.text is None:
                continue
            text = data.text
            # XML reads a CRLF as LF unless the CR was written as &#13;.
            if "\r" not in text:
                text = text.replace("\n", "\r\n")
            by_path[urllib.parse.urlsplit(urllib.parse.urljoin(book, href)).path] = text.encode("utf-8")
        for u in batch:
            card = by_path.get(urllib.parse.urlsplit(u).path)
            if card is not None:
                out.append(card)
    return out


def read_books(url: str, user: Optional[str], password: Optional[str], ca_file: Optional[str], only: Optional[str],
               insecure_http: bool) -> list:
    """[(book URL without login, [card bytes])] of the books `url` leads to."""
    p = urllib.parse.urlsplit(url)
    if p.scheme.lower() not in ("http", "https") or not p.hostname:
        raise CardDAVError("argument", f"{url}: not an http or https URL")
    if p.username is not None or p.password is not None:
        raise CardDAVError("argument", "give the login as user and a password file, not in the URL")
    if p.scheme.lower() == "http" and not is_loopback(url) and not insecure_http:
        raise CardDAVError(
            "argument", f"{redacted(url)}: plain http to another machine would send the password in clear; use https, or insecure_http=True"
        )
    client = Client(url, user, password, ca_file)
    return [(redacted(book), fetch(client, book, list_cards(client, book))) for book in address_books(client, url, only)]
