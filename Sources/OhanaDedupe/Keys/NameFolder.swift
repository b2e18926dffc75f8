import OhanaText
import Synchronization

/// Folds a name for matching: ICU `Any-Latin; Latin-ASCII` for text that is
/// not ASCII (scripts to Latin, accents and ligatures to ASCII), then ASCII
/// lower case; letters and digits are kept, apostrophes vanish (O'Brien =
/// OBrien), everything else separates tokens, and tokens are joined by one
/// space.
///
/// `"  José-María  GARCÍA "` → `"jose maria garcia"`, `"Александр"` →
/// `"aleksandr"`, `"Müller"` → `"muller"`.
package final class NameFolder: Sendable {
  /// Opened at the first text outside ASCII: ICU compiles its rules when it
  /// opens it, which a run whose names and countries are all ASCII need not
  /// pay, and which another run pays in the names' task, beside the row keys
  /// (see ``ContactKeys``), not before them with a core idle.
  private static let latinASCII = try? Transliterator("Any-Latin; Latin-ASCII")
  private var transliterator: Transliterator? { Self.latinASCII }
  /// Folds of text outside ASCII made or given (``remember(_:)``) in this
  /// process. ICU builds a script's transliteration rules the first time it
  /// meets the script, which a small batch linked to an entity store need not
  /// pay for names the store has folded before (it keeps them, and gives them
  /// here first).
  private let memo = Mutex<[[UInt8]: [UInt8]]>([:])
  /// Folds kept at most (then text is folded again each time).
  static let memoLimit = 1 << 18

  package static let shared = NameFolder()

  init() {}

  /// Appends the folded form of `bytes` to `out` (which is not cleared).
  func fold(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
    if Self.isASCII(bytes) {
      Self.asciiTokens(bytes, into: &out)
      return
    }
    out.append(contentsOf: folded(bytes))
  }

  /// The folded form of text outside ASCII, through the memo.
  private func folded(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    let key = Array(bytes)
    if let known = memo.withLock({ $0[key] }) { return known }
    var out: [UInt8] = []
    if let t = transliterator {
      let latin = t.transliterate(utf8: bytes)
      latin.withUnsafeBytes { Self.asciiTokens($0, into: &out) }
    } else {
      Self.asciiTokens(bytes, into: &out)
    }
    memo.withLock { m in if m.count < Self.memoLimit { m[key] = out } }
    return out
  }

  static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for b in bytes where b >= 0x80 { return false }
    return true
  }

  /// The folded form of `text` (UTF-8), through the memo.
  package func folded(_ text: [UInt8]) -> [UInt8] {
    text.withUnsafeBytes { raw in
      var out: [UInt8] = []
      fold(raw, into: &out)
      return out
    }
  }

  /// Gives folds made earlier (an entity store's), so that text is not
  /// transliterated again; `folds` maps text to ``folded(_:)`` of it.
  package func remember(_ folds: [([UInt8], [UInt8])]) {
    memo.withLock { m in
      for (text, f) in folds where m.count < Self.memoLimit { m[text] = f }
    }
  }

  package func fold(_ string: String) -> String {
    var out: [UInt8] = []
    var s = string
    s.withUTF8 { fold(UnsafeRawBufferPointer($0), into: &out) }
    return String(decoding: out, as: UTF8.self)
  }

  /// Whether `bytes` (UTF-8) hold a letter outside ASCII and the Latin
  /// blocks (Latin-1, Latin Extended-A/B, Latin Extended Additional).
  static func hasNonLatinLetters(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars where scalar.value >= 0x80 {
      let v = scalar.value
      let latin = (0xC0...0x24F).contains(v) || (0x1E00...0x1EFF).contains(v)
      if !latin && scalar.properties.isAlphabetic { return true }
    }
    return false
  }

  /// Lower-case ASCII letters and digits, other bytes separate tokens.
  static func asciiTokens(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
    let start = out.count
    var pendingSpace = false
    for var b in bytes {
      if b >= 0x41 && b <= 0x5A { b |= 0x20 }
      let keep = (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
      if keep {
        if pendingSpace && out.count > start { out.append(0x20) }
        pendingSpace = false
        out.append(b)
      } else if b == 0x27 || b == 0x60 {
        // Apostrophes vanish inside names (O'Brien = OBrien, ICU's soft sign ʹ → ').
        continue
      } else {
        pendingSpace = true
      }
    }
  }
}
