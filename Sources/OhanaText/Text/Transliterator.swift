/// Script conversion and other rule-based transforms, over ICU's `UTransliterator`.
///
/// ```swift
/// let t = try Transliterator("Any-Latin; Latin-ASCII")
/// t.transliterate("Александр")  // "Aleksandr"
/// t.transliterate("Müller")     // "Muller"
/// ```
///
/// ICU transliterators are not thread-safe. A `Transliterator` is `Sendable`
/// all the same: it keeps a pool of clones (`utrans_clone`) and lends one to
/// each calling thread, so many threads can transliterate at once.
public final class Transliterator: Sendable {
  /// The transform id, as given.
  public let id: String
  private let pool: ICUClonePool

  /// Opens a transliterator by id (`"Any-Latin; Latin-ASCII"`, `"NFD; [:Nonspacing Mark:] Remove; NFC"`).
  /// The corresponding C function is `utrans_openU`.
  /// - Throws: ``TextError`` (``TextError/Code/unknownTransliterator``).
  public init(_ id: String) throws(TextError) {
    let (handle, status) = icu_transliteratorOpen(id)
    guard let handle else {
      throw TextError(
        code: .unknownTransliterator, status: status, message: "cannot open transliterator '\(id)'")
    }
    self.id = id
    self.pool = ICUClonePool(
      prototype: handle, clone: icu_transliteratorClone, close: icu_transliteratorClose)
  }

  /// Transliterates UTF-8 bytes. The corresponding C function is `utrans_transUChars`.
  /// If ICU fails (out of memory), the input is returned unchanged.
  public func transliterate<Bytes: Collection<UInt8>>(utf8: Bytes) -> [UInt8] {
    withContiguousBytes(utf8) { bytes in
      pool.withInstance { Transliterator.transliterate(bytes, with: $0) }
    }
  }

  /// Transliterates many strings on all cores, one clone per worker; output
  /// `i` belongs to input `i`. For name matching over a string pool's
  /// distinct values.
  public func transliterate(_ strings: ByteStrings, parallel: Bool = true) -> ByteStrings {
    let pool = self.pool
    return ByteStrings.build(count: strings.count, parallel: parallel) { indices, chunk in
      strings.bytes.withUnsafeBufferPointer { all in
        pool.withInstance { handle in
          for i in indices {
            let source = UnsafeBufferPointer(rebasing: all[strings.range(i)])
            chunk.bytes.append(contentsOf: Transliterator.transliterate(source, with: handle))
            chunk.close()
          }
        }
      }
    }
  }

  private static func transliterate(_ bytes: UnsafeBufferPointer<UInt8>, with handle: ICUHandle)
    -> [UInt8]
  {
    let units = icu_utf16(fromUTF8: bytes)
    switch units.withUnsafeBufferPointer({ icu_transliterate(handle, $0) }) {
    case .success(let out): return out.withUnsafeBufferPointer { icu_utf8(fromUTF16: $0) }
    case .failure: return Array(bytes)
    }
  }

  /// Transliterates a string. The corresponding C function is `utrans_transUChars`.
  public func transliterate(_ string: String) -> String {
    String(decoding: transliterate(utf8: string.utf8), as: UTF8.self)
  }
}
