/// The name of one interned string in a ``StringPool``.
///
/// A 32-bit id instead of a `String`: columns of names, labels and values are
/// arrays of `StringID`, four bytes a cell, and two cells hold the same text
/// exactly when their ids are equal (within one pool). Id 0 is ``absent``:
/// the store does not tell an empty string from a missing one.
///
/// Ids are opaque on purpose: an id only means something together with the
/// pool that issued it, and ``ContactTable/concatenate(_:)`` remaps them.
@frozen
public struct StringID: RawRepresentable, Hashable, Comparable, Sendable, Codable {
  public var rawValue: UInt32

  @inlinable
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// No value (also the id of the empty string). Computed and inlinable, so
  /// other modules use the constant (a `static let` costs them a lazy
  /// initialization check per use).
  @inlinable public static var absent: StringID { StringID(rawValue: 0) }

  @inlinable public var isAbsent: Bool { rawValue == 0 }
  @inlinable public var isPresent: Bool { rawValue != 0 }
  /// The id as an array index (ids are dense: 0 ..< pool.count).
  @inlinable public var index: Int { Int(rawValue) }

  @inlinable
  public static func < (lhs: StringID, rhs: StringID) -> Bool { lhs.rawValue < rhs.rawValue }
}
