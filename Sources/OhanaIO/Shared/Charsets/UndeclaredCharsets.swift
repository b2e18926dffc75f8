import OhanaText

#if canImport(Glibc)
  import Glibc
#endif

/// Undeclared 8-bit text (vCard values that are not UTF-8 and name no
/// charset): the charset named in the options, else ICU's detector over all
/// such text of the input, else the fallback.
///
/// The vCard chunk parsers decode such values with
/// `ReadOptions.declaredCharset` or, without one, with the fallback, and
/// hand their raw bytes in (capped); after the read, ``settle(_:again:_:)``
/// runs the detector over them and, when it names another charset with
/// enough confidence, reads the input again with that charset declared.
enum UndeclaredCharsets {
  /// How to read the input from its start again.
  enum Restart {
    case memory(ByteSource)
    case file(Int32, offset: Int)
  }

  /// The restart for `source` before anything has been read from it: bytes
  /// in memory, or a regular file at its current offset; nil for a pipe, a
  /// terminal or a socket (they cannot be read twice).
  static func restart(for source: ByteSource) -> Restart? {
    switch source.storage {
    case .memory: return .memory(source)
    case .descriptor(let fd):
      var st = stat()
      guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
      let offset = lseek(fd, 0, SEEK_CUR)
      guard offset >= 0 else { return nil }
      return .file(fd, offset: Int(offset))
    }
  }

  static func rewind(_ restart: Restart) -> ByteSource? {
    switch restart {
    case .memory(let source): return source
    case .file(let fd, let offset):
      guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else { return nil }
      return ByteSource(storage: .descriptor(fd))
    }
  }

  /// Checks the options' declared charset against ICU (kept as the caller
  /// spelled it: ICU's canonical names are internal, `ibm-5348_P100-1997`).
  static func validate(_ options: ReadOptions) throws(ContactIOError) {
    guard let name = options.declaredCharset else { return }
    guard CharsetConverter.canonicalName(name) != nil else {
      throw ContactIOError(.charset, "unknown charset '\(name)'")
    }
  }

  /// What detection concludes about `text` (the raw bytes of undeclared
  /// values): `use` is the charset to read the input in when it is not
  /// the fallback; `best` is the detector's best answer (nil when it has
  /// none); `agrees` is set when the answer is confident and decodes the
  /// text exactly as the fallback does.
  struct Verdict {
    var use: String?
    var best: CharsetDetector.Match?
    var agrees = false
  }

  /// Two answers closer than this are a tie, and a tie with the fallback
  /// keeps the fallback: on short text ICU often puts a neighbour of the
  /// right Latin charset a few points ahead (windows-1250 at 31 over
  /// windows-1252 at 26 on one French card; see the measurements).
  static let tieMargin = 8

  static func verdict(text: [UInt8], fallback: String, threshold: Int) -> Verdict {
    guard threshold <= 100, !text.isEmpty else { return Verdict() }
    // The text is not UTF-8 by construction: Unicode answers are noise.
    let matches = ((try? CharsetDetector.detect(text)) ?? []).filter { !$0.name.uppercased().hasPrefix("UTF-") }
    guard let first = matches.first else { return Verdict() }
    let name = sibling(of: first.name, text: text)
    let best = CharsetDetector.Match(name: name, confidence: first.confidence)
    guard first.confidence >= threshold,
      let detected = try? CharsetConverter.toUTF8(text, charset: name)
    else { return Verdict(best: best) }
    guard let fallen = try? CharsetConverter.toUTF8(text, charset: fallback) else {
      return Verdict(use: name, best: best)
    }
    if detected == fallen { return Verdict(best: best, agrees: true) }
    // A near tie with an answer that reads the text as the fallback does.
    for m in matches.dropFirst() where m.confidence + tieMargin > first.confidence {
      if let other = try? CharsetConverter.toUTF8(text, charset: sibling(of: m.name, text: text)), other == fallen {
        return Verdict(best: best)
      }
    }
    // A charset whose decoding breaks more bytes than the fallback's is wrong.
    if replacements(detected) > replacements(fallen) + text.count / 1000 { return Verdict(best: best) }
    return Verdict(use: name, best: best)
  }

  /// ICU's ISO 8859 answer or its Windows sibling (ISO-8859-7 or
  /// windows-1253...), whichever reads more of `text` as letters; the
  /// Windows one on a tie, and always when the text has bytes in
  /// 0x80–0x9F. ICU names the Windows code page only in that last case, so
  /// Greek from Windows (Ά at 0xA2, a quotation mark in ISO-8859-7) came
  /// out wrong without this.
  static func sibling(of name: String, text: [UInt8]) -> String {
    let hasC1 = text.contains { $0 >= 0x80 && $0 <= 0x9F }
    let windows = CharsetDetector.windowsCodePage(for: name, hasC1Bytes: true)
    if windows == name || hasC1 { return windows }
    guard let w = try? CharsetConverter.toUTF8(text, charset: windows) else { return name }
    guard let i = try? CharsetConverter.toUTF8(text, charset: name) else { return windows }
    return letters(w) >= letters(i) ? windows : name
  }

  private static func letters(_ utf8: [UInt8]) -> Int {
    var n = 0
    for u in String(decoding: utf8, as: UTF8.self).unicodeScalars where u.properties.isAlphabetic { n += 1 }
    return n
  }

  /// U+FFFD (EF BF BD) in UTF-8 text.
  private static func replacements(_ utf8: [UInt8]) -> Int {
    var n = 0
    var i = 0
    while i + 2 < utf8.count {
      if utf8[i] == 0xEF && utf8[i + 1] == 0xBF && utf8[i + 2] == 0xBD {
        n += 1
        i += 3
      } else {
        i += 1
      }
    }
    return n
  }

  /// Detection over the undeclared text of `head` (the first chunk of an
  /// input that cannot be read twice), parsed once for that alone: the
  /// charset to declare for the whole read, or nil to read as usual.
  static func probe(_ head: [UInt8], _ options: ReadOptions) -> CharsetDetector.Match? {
    // UTF-8 input (the usual case) is not parsed twice: only 8-bit bytes
    // that are not UTF-8, or quoted-printable (which can hide them), can
    // make undeclared text.
    let valid = head.withUnsafeBytes { ByteScan.isValidUTF8($0) }
    if valid && head.firstRange(of: Self.qpUpper) == nil && head.firstRange(of: Self.qpLower) == nil { return nil }
    var opts = options
    opts.strict = false
    let part = VCardReader.parseChunk(InputChunk(bytes: head, firstLine: 1, index: 0), options: opts)
    let v = verdict(text: part.undeclaredText, fallback: options.fallbackCharset, threshold: options.minimumDetectionConfidence)
    guard let use = v.use, let best = v.best else { return nil }
    return CharsetDetector.Match(name: use, confidence: best.confidence)
  }

  private static let qpUpper = Array("QUOTED-PRINTABLE".utf8)
  private static let qpLower = Array("quoted-printable".utf8)

  /// Fills in `result.undeclaredCharset` after a vCard read with
  /// `options`; reads the input again (through `read`) when detection
  /// names another charset and `again` can restart it.
  static func settle(
    _ result: ReadResult, again: Restart?, _ options: ReadOptions,
    read: (ByteSource, ReadOptions) throws(ContactIOError) -> ReadResult
  ) throws(ContactIOError) -> ReadResult {
    var result = result
    guard result.undeclaredValues > 0 else { return result }
    let values = result.undeclaredValues
    let fallback = options.fallbackCharset
    if let declared = options.declaredCharset {
      result.undeclaredCharset = UndeclaredCharset(name: declared, source: .declared, values: values)
      result.undeclaredText = []
      return result
    }
    let v = verdict(
      text: result.undeclaredText, fallback: options.fallbackCharset, threshold: options.minimumDetectionConfidence)
    result.undeclaredText = []
    if v.agrees, let best = v.best {
      result.undeclaredCharset = UndeclaredCharset(name: fallback, source: .detected, values: values, detection: best)
      return result
    }
    guard let use = v.use, let best = v.best else {
      result.undeclaredCharset = UndeclaredCharset(name: fallback, source: .fallback, values: values, detection: v.best)
      return result
    }
    guard let again, let source = rewind(again) else {
      result.undeclaredCharset = UndeclaredCharset(
        name: fallback, source: .fallback, values: values, detection: best, couldNotReread: true)
      return result
    }
    var options = options
    options.declaredCharset = use
    var second = try read(source, options)
    second.undeclaredCharset = UndeclaredCharset(
      name: use, source: .detected, values: second.undeclaredValues, detection: best)
    second.undeclaredText = []
    return second
  }
}
