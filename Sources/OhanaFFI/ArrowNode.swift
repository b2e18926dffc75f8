import COhanaArrow

#if canImport(Glibc)
  import Glibc
#endif

/// An Arrow array described by the engine before it is exported: its type
/// (a format string of the C Data Interface), its buffers, children and
/// dictionary. ``exportArray(to:)`` and ``exportSchema(to:)`` fill the C
/// structs; the consumer's `release` frees what they hold.
///
/// ```
///  ArrowNode ── buffers [ArrowBuffer?] ──► engine memory (64-byte aligned)
///      │  exportArray(to: p)
///      ▼
///  ArrowArray { length, null_count, buffers ─► ArrayOwner.buffers (C array of pointers)
///               children ─► ArrayOwner.children (C array of ArrowArray*)
///               release = ohanaReleaseArray, private_data = retained ArrayOwner }
/// ```
/// Every exported struct, child and dictionary has its own owner, so a
/// consumer may move a child out (copy it, mark the original released)
/// and release it later than its parent, as the specification allows.
final class ArrowNode: @unchecked Sendable {
  // @unchecked: built on one thread, then only read.
  let format: String
  let name: String
  let nullable: Bool
  let length: Int
  let nullCount: Int
  let buffers: [ArrowBuffer?]
  let children: [ArrowNode]
  let dictionary: ArrowNode?
  let metadata: [(String, String)]

  init(
    format: String, name: String = "", nullable: Bool = true, length: Int, nullCount: Int = 0,
    buffers: [ArrowBuffer?], children: [ArrowNode] = [], dictionary: ArrowNode? = nil,
    metadata: [(String, String)] = []
  ) {
    self.format = format
    self.name = name
    self.nullable = nullable
    self.length = length
    self.nullCount = nullCount
    self.buffers = buffers
    self.children = children
    self.dictionary = dictionary
    self.metadata = metadata
  }

  /// A struct array of `columns` (a record batch: no validity, all columns
  /// `length` long).
  static func recordBatch(_ columns: [ArrowNode], length: Int) -> ArrowNode {
    ArrowNode(format: "+s", nullable: false, length: length, buffers: [nil], children: columns)
  }

  /// The same array under another name.
  func renamed(_ newName: String) -> ArrowNode {
    ArrowNode(
      format: format, name: newName, nullable: nullable, length: length, nullCount: nullCount,
      buffers: buffers, children: children, dictionary: dictionary, metadata: metadata)
  }

  // MARK: Export

  /// Fills `out` (a struct the consumer owns; its previous content is
  /// overwritten) with this array. The consumer must call its `release`.
  func exportArray(to out: UnsafeMutablePointer<ArrowArray>) {
    let owner = ArrayOwner(self)
    out.initialize(
      to: ArrowArray(
        length: Int64(length), null_count: Int64(nullCount), offset: 0,
        n_buffers: Int64(buffers.count), n_children: Int64(children.count),
        buffers: owner.buffers,
        children: children.isEmpty ? nil : owner.childPointers,
        dictionary: owner.dictionary,
        release: ohanaReleaseArray,
        private_data: Unmanaged.passRetained(owner).toOpaque()))
  }

  /// Fills `out` with this array's type (the schema of a record batch when
  /// this is one). The consumer must call its `release`.
  func exportSchema(to out: UnsafeMutablePointer<ArrowSchema>) {
    let owner = SchemaOwner(self)
    var flags: Int64 = 0
    if nullable { flags |= Int64(ARROW_FLAG_NULLABLE) }
    out.initialize(
      to: ArrowSchema(
        format: UnsafePointer(owner.format), name: UnsafePointer(owner.name),
        metadata: owner.metadata.map { UnsafePointer($0) }, flags: flags,
        n_children: Int64(children.count), children: children.isEmpty ? nil : owner.childPointers,
        dictionary: owner.dictionary,
        release: ohanaReleaseSchema,
        private_data: Unmanaged.passRetained(owner).toOpaque()))
  }
}

/// What one exported ArrowArray struct holds: the node (so its buffers
/// stay alive), the C array of buffer pointers, and its children's and
/// dictionary's structs (each exported with its own owner).
final class ArrayOwner {
  let node: ArrowNode
  let buffers: UnsafeMutablePointer<UnsafeRawPointer?>
  let childStructs: UnsafeMutablePointer<ArrowArray>?
  let childPointers: UnsafeMutablePointer<UnsafeMutablePointer<ArrowArray>?>?
  let dictionary: UnsafeMutablePointer<ArrowArray>?

  init(_ node: ArrowNode) {
    self.node = node
    buffers = .allocate(capacity: max(1, node.buffers.count))
    for (i, b) in node.buffers.enumerated() { (buffers + i).initialize(to: b.map { UnsafeRawPointer($0.base) }) }
    if node.children.isEmpty {
      childStructs = nil
      childPointers = nil
    } else {
      let structs = UnsafeMutablePointer<ArrowArray>.allocate(capacity: node.children.count)
      let pointers = UnsafeMutablePointer<UnsafeMutablePointer<ArrowArray>?>.allocate(capacity: node.children.count)
      for (i, child) in node.children.enumerated() {
        child.exportArray(to: structs + i)
        (pointers + i).initialize(to: structs + i)
      }
      childStructs = structs
      childPointers = pointers
    }
    if let d = node.dictionary {
      let s = UnsafeMutablePointer<ArrowArray>.allocate(capacity: 1)
      d.exportArray(to: s)
      dictionary = s
    } else {
      dictionary = nil
    }
  }

  /// Releases the children and the dictionary that were not moved away.
  func releaseChildren() {
    if let childStructs {
      for i in 0..<node.children.count {
        let c = childStructs + i
        if let release = c.pointee.release { release(c) }
      }
    }
    if let dictionary, let release = dictionary.pointee.release { release(dictionary) }
  }

  deinit {
    buffers.deallocate()
    childStructs?.deallocate()
    childPointers?.deallocate()
    dictionary?.deallocate()
  }
}

/// What one exported ArrowSchema struct holds: its C strings, children and dictionary.
final class SchemaOwner {
  let format: UnsafeMutablePointer<CChar>
  let name: UnsafeMutablePointer<CChar>
  let metadata: UnsafeMutablePointer<CChar>?
  let childCount: Int
  let childStructs: UnsafeMutablePointer<ArrowSchema>?
  let childPointers: UnsafeMutablePointer<UnsafeMutablePointer<ArrowSchema>?>?
  let dictionary: UnsafeMutablePointer<ArrowSchema>?

  init(_ node: ArrowNode) {
    format = strdup(node.format)
    name = strdup(node.name)
    metadata = node.metadata.isEmpty ? nil : Self.encodeMetadata(node.metadata)
    childCount = node.children.count
    if node.children.isEmpty {
      childStructs = nil
      childPointers = nil
    } else {
      let structs = UnsafeMutablePointer<ArrowSchema>.allocate(capacity: node.children.count)
      let pointers = UnsafeMutablePointer<UnsafeMutablePointer<ArrowSchema>?>.allocate(capacity: node.children.count)
      for (i, child) in node.children.enumerated() {
        child.exportSchema(to: structs + i)
        (pointers + i).initialize(to: structs + i)
      }
      childStructs = structs
      childPointers = pointers
    }
    if let d = node.dictionary {
      let s = UnsafeMutablePointer<ArrowSchema>.allocate(capacity: 1)
      d.exportSchema(to: s)
      dictionary = s
    } else {
      dictionary = nil
    }
  }

  /// The specification's metadata encoding: an int32 count, then for each
  /// pair an int32 length and the key's bytes, an int32 length and the
  /// value's bytes (native byte order).
  static func encodeMetadata(_ pairs: [(String, String)]) -> UnsafeMutablePointer<CChar> {
    var bytes: [UInt8] = []
    func int32(_ v: Int) { withUnsafeBytes(of: Int32(truncatingIfNeeded: v)) { bytes.append(contentsOf: $0) } }
    int32(pairs.count)
    for (k, v) in pairs {
      int32(k.utf8.count); bytes.append(contentsOf: k.utf8)
      int32(v.utf8.count); bytes.append(contentsOf: v.utf8)
    }
    let p = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 8)
    bytes.withUnsafeBytes { if let src = $0.baseAddress { p.copyMemory(from: src, byteCount: $0.count) } }
    return p.bindMemory(to: CChar.self, capacity: bytes.count)
  }

  func releaseChildren() {
    if let childStructs {
      for i in 0..<childCount {
        let c = childStructs + i
        if let release = c.pointee.release { release(c) }
      }
    }
    if let dictionary, let release = dictionary.pointee.release { release(dictionary) }
  }

  deinit {
    free(format)
    free(name)
    metadata?.deallocate()
    childStructs?.deallocate()
    childPointers?.deallocate()
    dictionary?.deallocate()
  }
}

/// The `release` callback of every ArrowArray the engine exports: releases
/// the children and dictionary still in place, frees the owner, and marks
/// the struct released (`release = NULL`), as the specification requires.
func ohanaReleaseArray(_ array: UnsafeMutablePointer<ArrowArray>?) {
  guard let array, let opaque = array.pointee.private_data else { return }
  let owner = Unmanaged<ArrayOwner>.fromOpaque(opaque).takeRetainedValue()
  owner.releaseChildren()
  array.pointee.release = nil
  array.pointee.private_data = nil
}

/// The `release` callback of every ArrowSchema the engine exports.
func ohanaReleaseSchema(_ schema: UnsafeMutablePointer<ArrowSchema>?) {
  guard let schema, let opaque = schema.pointee.private_data else { return }
  let owner = Unmanaged<SchemaOwner>.fromOpaque(opaque).takeRetainedValue()
  owner.releaseChildren()
  schema.pointee.release = nil
  schema.pointee.private_data = nil
}
