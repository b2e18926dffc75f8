#!/usr/bin/env python3
"""Generates Sources/OhanaPhone/Generated/PhoneMetadata+Tables.swift.

Reads libphonenumber's metadata (Apache-2.0, Google) through the pinned PyPI
package `phonenumbers` (9.0.43) and writes one compact binary blob, base64
encoded in a Swift string literal, that OhanaPhone decodes once at first use.

Every metadata pattern used for validation, classification and format
selection is compiled here into a minimal DFA over the ten ASCII digits.
Number-format patterns are reduced to group widths (they are concatenations
of `(\\d{n})` / `(\\d{n,m})`). The few IDD and national-prefix-for-parsing
patterns, which need leftmost-first match ends and capture groups, are kept
as source text and compiled at load time into a tiny backtracking program.

Usage: python3 Scripts/phone/generate_metadata.py  (from the package root)
"""
import base64
import os
import re
import struct
import sys

import phonenumbers
from phonenumbers.phonemetadata import PhoneMetadata
from phonenumbers import phonenumberutil as pnu

PINNED = "9.0.43"
if phonenumbers.__version__ != PINNED:
  sys.exit("expected phonenumbers %s, found %s" % (PINNED, phonenumbers.__version__))

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Sources", "OhanaPhone", "Generated", "PhoneMetadata+Tables.swift")

# ---------------------------------------------------------------------------
# A parser for the regex subset the metadata uses, and a DFA compiler.
# AST: ('set', frozenset(digits)) | ('cat', [..]) | ('alt', [..])
#      | ('rep', node, lo, hi) | ('grp', node) | ('eol',)


class Parser:
  def __init__(self, s):
    self.s = s
    self.i = 0

  def peek(self):
    return self.s[self.i] if self.i < len(self.s) else None

  def take(self):
    c = self.s[self.i]
    self.i += 1
    return c

  def parse(self):
    node = self.alt()
    if self.i != len(self.s):
      raise ValueError("trailing input in %r at %d" % (self.s, self.i))
    return node

  def alt(self):
    items = [self.cat()]
    while self.peek() == "|":
      self.take()
      items.append(self.cat())
    return items[0] if len(items) == 1 else ("alt", items)

  def cat(self):
    items = []
    while self.peek() is not None and self.peek() not in "|)":
      atom = self.atom()
      atom = self.quant(atom)
      items.append(atom)
    return ("cat", items)

  def quant(self, atom):
    c = self.peek()
    if c == "?":
      self.take()
      return ("rep", atom, 0, 1)
    if c == "{":
      j = self.s.index("}", self.i)
      body = self.s[self.i + 1:j]
      self.i = j + 1
      if "," in body:
        lo, hi = body.split(",")
        return ("rep", atom, int(lo), int(hi))
      return ("rep", atom, int(body), int(body))
    if c in ("*", "+"):
      raise ValueError("unbounded quantifier in %r" % self.s)
    return atom

  def atom(self):
    c = self.take()
    if c == "(":
      capture = True
      if self.s.startswith("?:", self.i):
        self.i += 2
        capture = False
      node = self.alt()
      if self.take() != ")":
        raise ValueError("unbalanced")
      return ("grp", node) if capture else node
    if c == "[":
      digits = set()
      while self.peek() != "]":
        a = self.take()
        if a == "\\":
          b = self.take()
          if b != "d":
            raise ValueError("class escape %r" % b)
          digits |= set("0123456789")
          continue
        if self.peek() == "-" and self.s[self.i + 1] != "]":
          self.take()
          b = self.take()
          for x in range(ord(a), ord(b) + 1):
            digits.add(chr(x))
        else:
          digits.add(a)
      self.take()
      if not digits <= set("0123456789"):
        raise ValueError("non-digit class in %r" % self.s)
      return ("set", frozenset(digits))
    if c == "\\":
      b = self.take()
      if b != "d":
        raise ValueError("escape %r in %r" % (b, self.s))
      return ("set", frozenset("0123456789"))
    if c == "$":
      return ("eol",)
    if c.isdigit():
      return ("set", frozenset(c))
    raise ValueError("unexpected %r in %r" % (c, self.s))


class NFA:
  def __init__(self):
    self.eps = []
    self.edges = []

  def new(self):
    self.eps.append([])
    self.edges.append([])
    return len(self.eps) - 1

  def build(self, node, start):
    """Adds node after state `start`; returns the end state."""
    kind = node[0]
    if kind == "set":
      end = self.new()
      self.edges[start].append((node[1], end))
      return end
    if kind == "cat":
      cur = start
      for item in node[1]:
        cur = self.build(item, cur)
      return cur
    if kind == "alt":
      end = self.new()
      for item in node[1]:
        s = self.new()
        self.eps[start].append(s)
        e = self.build(item, s)
        self.eps[e].append(end)
      return end
    if kind == "grp":
      return self.build(node[1], start)
    if kind == "rep":
      _, sub, lo, hi = node
      cur = start
      for _ in range(lo):
        cur = self.build(sub, cur)
      end = self.new()
      self.eps[cur].append(end)
      for _ in range(hi - lo):
        nxt = self.build(sub, cur)
        self.eps[nxt].append(end)
        cur = nxt
      return end
    raise ValueError("cannot compile %r into a DFA" % (kind,))


def closure(nfa, states):
  stack = list(states)
  seen = set(states)
  while stack:
    s = stack.pop()
    for t in nfa.eps[s]:
      if t not in seen:
        seen.add(t)
        stack.append(t)
  return frozenset(seen)


def compile_dfa(pattern):
  """Minimal DFA: (transitions[state][digit] -> state or -1, accept[state]); state 0 is the start."""
  ast = Parser(pattern).parse()
  nfa = NFA()
  start = nfa.new()
  final = nfa.build(ast, start)
  s0 = closure(nfa, [start])
  index = {s0: 0}
  order = [s0]
  trans = []
  i = 0
  while i < len(order):
    cur = order[i]
    row = []
    for d in "0123456789":
      nxt = set()
      for s in cur:
        for (cls, t) in nfa.edges[s]:
          if d in cls:
            nxt.add(t)
      if not nxt:
        row.append(-1)
        continue
      c = closure(nfa, nxt)
      if c not in index:
        index[c] = len(order)
        order.append(c)
      row.append(index[c])
    trans.append(row)
    i += 1
  accept = [final in st for st in order]
  # Moore minimisation (the dead state is implicit: -1).
  part = [1 if a else 0 for a in accept]
  while True:
    sig = {}
    newpart = []
    for s in range(len(order)):
      key = (part[s], tuple(part[t] if t >= 0 else -1 for t in trans[s]))
      if key not in sig:
        sig[key] = len(sig)
      newpart.append(sig[key])
    if len(sig) == len(set(part)):
      part = newpart
      break
    part = newpart
  # Renumber so that the start state is 0.
  remap = {}
  for s in range(len(order)):
    if part[s] not in remap:
      remap[part[s]] = len(remap)
  n = len(remap)
  mtrans = [None] * n
  macc = [False] * n
  for s in range(len(order)):
    m = remap[part[s]]
    mtrans[m] = [remap[part[t]] if t >= 0 else -1 for t in trans[s]]
    macc[m] = accept[s]
  return mtrans, macc


class DFATable:
  """All DFAs in one table. Global state 0 is the dead state."""

  def __init__(self):
    self.trans = [0] * 10
    self.accept = [0]
    self.cache = {}

  def add(self, pattern):
    if pattern is None or pattern == "":
      return 0
    if pattern in self.cache:
      return self.cache[pattern]
    mtrans, macc = compile_dfa(pattern)
    base = len(self.accept)
    for row, acc in zip(mtrans, macc):
      for t in row:
        self.trans.append(0 if t < 0 else base + t)
      self.accept.append(1 if acc else 0)
    self.cache[pattern] = base
    return base


# ---------------------------------------------------------------------------
# Metadata.

strings = [""]
string_index = {"": 0}


def sid(s):
  if s is None:
    return 0xFFFF
  if s not in string_index:
    string_index[s] = len(strings)
    strings.append(s)
  return string_index[s]


GROUP_REF = re.compile(r"\\(\d)|\$(\d)")


def encode_template(t):
  """Group references become bytes 0x01...0x09; everything else is literal UTF-8."""
  return GROUP_REF.sub(lambda m: chr(int(m.group(1) or m.group(2))), t)


SEPARATORS = set("-x\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u30FC\uFF0D\uFF0E\uFF0F "
                 "\u00A0\u00AD\u200B\u2060\u3000()\uFF08\uFF09\uFF3B\uFF3D.[]/~\u2053\u223C\uFF5E")


def rfc_template(t):
  """Applies RFC3966's separator rewriting to an (encoded) template ahead of time."""
  out = []
  i = 0
  n = len(t)
  leading = True
  while i < n:
    if t[i] in SEPARATORS:
      j = i
      while j < n and t[j] in SEPARATORS:
        j += 1
      if not leading:
        out.append("-")
      i = j
      continue
    leading = False
    out.append(t[i])
    i += 1
  return "".join(out)


FMT_GROUP = re.compile(r"\(\\d(?:\{(\d+)(?:,(\d+))?\})?\)")


def format_groups(pattern):
  groups = []
  pos = 0
  while pos < len(pattern):
    m = FMT_GROUP.match(pattern, pos)
    if not m:
      raise ValueError("unsupported format pattern %r" % pattern)
    lo = int(m.group(1)) if m.group(1) else 1
    hi = int(m.group(2)) if m.group(2) else lo
    groups.append((lo, hi))
    pos = m.end()
  if sum(1 for lo, hi in groups if lo != hi) > 1:
    raise ValueError("two variable groups in %r" % pattern)
  return groups


dfa = DFATable()

DESC_NAMES = ["general_desc", "premium_rate", "toll_free", "shared_cost", "voip", "personal_number",
              "pager", "uan", "voicemail", "fixed_line", "mobile"]


def length_mask(lengths):
  mask = 0
  for n in lengths:
    if n >= 0:
      mask |= 1 << n
  return mask


entries = []  # (code string, metadata)
for cc in sorted(pnu.COUNTRY_CODE_TO_REGION_CODE):
  for region in pnu.COUNTRY_CODE_TO_REGION_CODE[cc]:
    if region == "001":
      md = PhoneMetadata.metadata_for_nongeo_region(cc)
    else:
      md = PhoneMetadata.metadata_for_region(region)
    if md is None:
      continue
    entries.append((region, md))

cols = {k: [] for k in [
  "code", "cc", "flags", "idd", "npfp", "transform", "extn", "leading", "fmtStart", "fmtCount",
  "intlStart", "intlCount", "localMask"]}
desc_dfa = []
desc_mask = []

fmt_cols = {k: [] for k in ["groupStart", "groupCount", "tmpl", "natTmpl", "rfcTmpl", "leading"]}
group_min = []
group_max = []


def add_format(nf):
  if nf.format == "NA":
    raise ValueError("NA format")
  groups = format_groups(nf.pattern)
  fmt_cols["groupStart"].append(len(group_min))
  fmt_cols["groupCount"].append(len(groups))
  for lo, hi in groups:
    group_min.append(lo)
    group_max.append(hi)
  tmpl = encode_template(nf.format)
  fmt_cols["tmpl"].append(sid(tmpl))
  rule = nf.national_prefix_formatting_rule
  if rule:
    m = GROUP_REF.search(nf.format)
    if m is None:
      nat = tmpl
    else:
      ref = chr(int(m.group(1) or m.group(2)))
      enc_rule = GROUP_REF.sub(lambda r: ref if (r.group(1) or r.group(2)) == "1" else "\x00", rule)
      if "\x00" in enc_rule:
        raise ValueError("unexpected rule %r" % rule)
      nat = encode_template(nf.format[:m.start()]) + enc_rule + encode_template(nf.format[m.end():])
  else:
    nat = tmpl
  fmt_cols["natTmpl"].append(sid(nat))
  fmt_cols["rfcTmpl"].append(sid(rfc_template(tmpl)))
  ldp = nf.leading_digits_pattern
  fmt_cols["leading"].append(dfa.add(ldp[-1]) if ldp else 0)


for region, md in entries:
  cols["code"].append(sid(region))
  cols["cc"].append(md.country_code)
  cols["flags"].append(1 if md.same_mobile_and_fixed_line_pattern else 0)
  cols["idd"].append(sid(md.international_prefix))
  cols["npfp"].append(sid(md.national_prefix_for_parsing if md.national_prefix_for_parsing else None))
  cols["transform"].append(sid(md.national_prefix_transform_rule if md.national_prefix_transform_rule else None))
  cols["extn"].append(sid(md.preferred_extn_prefix))
  cols["leading"].append(dfa.add(md.leading_digits))
  for name in DESC_NAMES:
    d = getattr(md, name)
    if d is None or not d.national_number_pattern:
      desc_dfa.append(0)
      desc_mask.append(0)
      continue
    desc_dfa.append(dfa.add(d.national_number_pattern))
    pl = d.possible_length
    desc_mask.append(0xFFFFFFFF if len(pl) == 0 else length_mask(pl))
  g = md.general_desc
  cols["localMask"].append(length_mask(g.possible_length_local_only or ()))
  cols["fmtStart"].append(len(fmt_cols["tmpl"]))
  for nf in md.number_format:
    add_format(nf)
  cols["fmtCount"].append(len(md.number_format))
  cols["intlStart"].append(len(fmt_cols["tmpl"]))
  for nf in md.intl_number_format:
    add_format(nf)
  cols["intlCount"].append(len(md.intl_number_format))

# Country calling code -> entries, in metadata order (main country first).
cc_start = [0] * 1000
cc_count = [0] * 1000
cc_entries = []
for cc in range(1000):
  idx = [i for i, (r, md) in enumerate(entries) if md.country_code == cc]
  cc_start[cc] = len(cc_entries)
  cc_count[cc] = len(idx)
  cc_entries.extend(idx)
for cc in pnu.COUNTRY_CODE_TO_REGION_CODE:
  regions = [r for r in pnu.COUNTRY_CODE_TO_REGION_CODE[cc]]
  got = [entries[i][0] for i in cc_entries[cc_start[cc]:cc_start[cc] + cc_count[cc]]]
  assert got == regions, (cc, got, regions)

# Patterns matched by the backtracker must parse too.
for s in set(cols["idd"]) | set(cols["npfp"]):
  if s != 0xFFFF:
    Parser(strings[s]).parse()

# Unicode tables, as Python's `re` sees them (`\d` and `\w`).
nd_zeros = []
cp = 0x80
while cp < 0x110000:
  if re.fullmatch(r"\d", chr(cp)):
    assert all(re.fullmatch(r"\d", chr(cp + k)) for k in range(10)), hex(cp)
    assert all(pnu.normalize_digits_only(chr(cp + k)) == str(k) for k in range(10)), hex(cp)
    nd_zeros.append(cp)
    cp += 10
  else:
    cp += 1
word_ranges = []
start = None
for cp in range(0x80, 0x110001):
  w = cp < 0x110000 and re.fullmatch(r"\w", chr(cp)) is not None
  if w and start is None:
    start = cp
  elif not w and start is not None:
    word_ranges.extend([start, cp - 1])
    start = None

# ---------------------------------------------------------------------------
# Blob.

blob = bytearray()


def put(fmt, values):
  blob.extend(struct.pack("<I", len(values)))
  blob.extend(struct.pack("<%d%s" % (len(values), fmt), *values))
  while len(blob) % 4:
    blob.append(0)


assert len(dfa.accept) < 65536
put("H", dfa.trans)                   # 0 DFA transitions (state * 10 + digit)
put("B", dfa.accept)                  # 1 DFA accept flags
encoded = [s.encode("utf-8") for s in strings]
offsets = [0]
for e in encoded:
  offsets.append(offsets[-1] + len(e))
put("I", offsets)                     # 2 string offsets
put("B", list(b"".join(encoded)))     # 3 string bytes
for key in ["code", "cc", "idd", "npfp", "transform", "extn", "leading", "fmtStart", "fmtCount",
            "intlStart", "intlCount"]:
  put("H", cols[key])                 # 4...14 entry columns
put("B", cols["flags"])               # 15
put("I", cols["localMask"])           # 16
put("H", desc_dfa)                    # 17 entry * 11 + desc
put("I", desc_mask)                   # 18
for key in ["groupStart", "groupCount", "tmpl", "natTmpl", "rfcTmpl", "leading"]:
  put("H", fmt_cols[key])             # 19...24 format columns
put("B", group_min)                   # 25
put("B", group_max)                   # 26
put("H", cc_start)                    # 27
put("B", cc_count)                    # 28
put("H", cc_entries)                  # 29
put("I", nd_zeros)                    # 30
put("I", word_ranges)                 # 31

b64 = base64.b64encode(bytes(blob)).decode("ascii")
lines = [b64[i:i + 120] for i in range(0, len(b64), 120)]

with open(OUT, "w") as f:
  f.write("// NOTE: THIS FILE IS AUTO-GENERATED BY Scripts/phone/generate_metadata.py (phonenumbers %s)\n" % PINNED)
  f.write("// Do not edit. Metadata: libphonenumber (Apache-2.0, Google), via the PyPI package phonenumbers.\n")
  f.write("// %d entries, %d formats, %d DFA states, %d strings, %d blob bytes.\n\n" % (
    len(entries), len(fmt_cols["tmpl"]), len(dfa.accept), len(strings), len(blob)))
  f.write("extension PhoneMetadataTables {\n")
  f.write("  static let version = \"%s\"\n\n" % PINNED)
  f.write("  /// Base64 of the little-endian table blob (see PhoneMetadataTables.swift for the layout).\n")
  f.write("  static let blobBase64: StaticString = \"\"\"\n")
  for line in lines:
    f.write(line + "\n")
  f.write("\"\"\"\n}\n")
print("wrote %s: %d entries, %d formats, %d states, %d bytes blob" % (
  OUT, len(entries), len(fmt_cols["tmpl"]), len(dfa.accept), len(blob)), file=sys.stderr)
