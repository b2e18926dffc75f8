/// Collation sort keys, one per input string, in one byte arena.
///
/// Key `i` belongs to input string `i`. Keys compare byte-wise (unsigned,
/// a proper prefix first) exactly like the collator compares the strings.
/// Every key ends with a zero byte and holds no other zero byte (ICU's
/// guarantee), which the radix sort in ``KeySort`` relies on.
///
/// Made by ``Collator/sortKeys(for:parallel:)``; sorted by ``KeySort``.
public struct SortKeys: Sendable, RandomAccessCollection {
  /// The keys, back to back, with their offsets.
  public let storage: ByteStrings

  /// Wraps keys made by ICU. Checks the zero-termination invariant in debug builds.
  init(storage: ByteStrings) {
    self.storage = storage
    #if DEBUG
      for i in 0..<storage.count {
        let key = storage[i]
        assert(key.last == 0 && key.dropLast().allSatisfy { $0 != 0 }, "malformed sort key")
      }
    #endif
  }

  /// Wraps keys from elsewhere (e.g. a cache).
  /// - Precondition: each key ends with its only zero byte (checked).
  public init(validating storage: ByteStrings) {
    for i in 0..<storage.count {
      let key = storage[i]
      precondition(
        key.last == 0 && key.dropLast().allSatisfy { $0 != 0 },
        "SortKeys: key \(i) is not zero-terminated or holds a zero byte")
    }
    self.storage = storage
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { storage.count }
  /// The key of string `i`, with its terminating zero.
  public subscript(i: Int) -> ArraySlice<UInt8> { storage[i] }

  /// Total bytes of all keys.
  public var byteCount: Int { storage.bytes.count }
}
