/// The name of one binary value (a photo) in a ``BlobStore``; 0 = none.
@frozen
public struct BlobID: RawRepresentable, Hashable, Sendable, Codable {
  public var rawValue: UInt32
  @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }
  @inlinable public static var none: BlobID { BlobID(rawValue: 0) }
  @inlinable public var isNone: Bool { rawValue == 0 }
}

/// Binary values (photos) in one append-only arena, each with a media type.
///
/// Layout: `bytes` holds every blob back to back; `ends[id]` is where blob
/// `id` ends (blob 0 is empty); `mediaTypes[id]` is an id in the table's
/// string pool (`image/jpeg`, or absent when unknown).
public struct BlobStore: Sendable {
  @usableFromInline var bytes: [UInt8] = []
  @usableFromInline var ends: [Int] = [0]
  @usableFromInline var mediaTypes: [StringID] = [.absent]

  public init() {}

  public var count: Int { ends.count }
  public var byteCount: Int { bytes.count }
  public var memoryFootprint: Int { bytes.capacity + ends.capacity * 8 + mediaTypes.capacity * 4 }

  public mutating func append(_ data: UnsafeRawBufferPointer, mediaType: StringID) -> BlobID {
    let id = BlobID(rawValue: UInt32(truncatingIfNeeded: ends.count))
    bytes.append(contentsOf: data)
    ends.append(bytes.count)
    mediaTypes.append(mediaType)
    return id
  }

  public mutating func append(_ data: [UInt8], mediaType: StringID) -> BlobID {
    data.withUnsafeBytes { append($0, mediaType: mediaType) }
  }

  public func data(_ id: BlobID) -> [UInt8] {
    let i = Int(id.rawValue)
    guard i > 0 && i < ends.count else { return [] }
    return Array(bytes[ends[i - 1]..<ends[i]])
  }

  public func withData<R>(_ id: BlobID, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let i = Int(id.rawValue)
    guard i > 0 && i < ends.count else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[ends[i - 1]..<ends[i]])) }
  }

  public func mediaType(_ id: BlobID) -> StringID {
    let i = Int(id.rawValue)
    guard i > 0 && i < mediaTypes.count else { return .absent }
    return mediaTypes[i]
  }
}
