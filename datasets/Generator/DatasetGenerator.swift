import OhanaCore

/// Which vCard version each generated card uses.
public enum VersionMode: Sendable, Equatable {
  case fixed(VCardVersion)
  /// Each card picks 2.1, 3.0 or 4.0 (1 : 2 : 1).
  case mixed
}

public struct GeneratorOptions: Sendable {
  public var contacts: Int
  public var seed: UInt64
  public var version: VersionMode
  /// Share of people (0...1) who get 1-3 duplicate records.
  public var dupRate: Double
  /// Customer / member records typed by hand instead of synced address
  /// books (see `Person+HandKeyed.swift`).
  public var handKeyed: Bool

  public init(contacts: Int, seed: UInt64, version: VersionMode = .mixed, dupRate: Double = 0, handKeyed: Bool = false) {
    self.contacts = contacts
    self.seed = seed
    self.version = version
    self.dupRate = dupRate
    self.handKeyed = handKeyed
  }
}

/// What a run produced.
public struct GeneratorSummary: Sendable, Equatable {
  public var contacts = 0
  public var people = 0
  /// Records that duplicate another record of the same person.
  public var duplicates = 0
  public var peopleWithDuplicates = 0
  public var bytes = 0
  public var byVersion: [String: Int] = [:]
}

/// Generates a realistic, international vCard dataset, streamed in chunks.
///
/// The output depends only on the options: the same seed gives the same
/// bytes. People come from `generatorLocales`; duplicates of a person are
/// variations of a copy, and all records are shuffled so that duplicates
/// are not adjacent.
///
/// - Complexity: O(n) time; memory O(n) for the shuffled order (8 bytes per
///   contact) plus one output chunk.
public struct DatasetGenerator: Sendable {
  public let options: GeneratorOptions
  /// Size at which a chunk of output is handed to the caller.
  public var chunkSize = 1 << 20

  public init(options: GeneratorOptions) {
    self.options = options
  }

  /// Runs the generator. `vcard` receives the vCard bytes in order,
  /// `truth` (if given) the bytes of a CSV file `uid,cluster_id`, and
  /// `progress` the number of contacts written so far (every 10,000).
  ///
  /// Cards are made in blocks on every worker of the engine's pool
  /// (`Workers.count`, or `threads`); each card's random streams come from
  /// the seed and its slot alone, so the bytes are the same whatever the
  /// number of threads. The callbacks run on the calling thread, in order.
  @discardableResult
  public func generate(
    threads: Int = 0,
    vcard: ([UInt8]) throws -> Void,
    truth: (([UInt8]) throws -> Void)? = nil,
    progress: ((Int) -> Void)? = nil
  ) throws -> GeneratorSummary {
    var summary = GeneratorSummary()
    let slots = makeSlots(&summary)
    let wantTruth = truth != nil
    let perBlock = Self.cardsPerBlock
    let blocks = (slots.count + perBlock - 1) / perBlock

    var vcardBytes: [UInt8] = []
    var truthBytes: [UInt8] = []
    if wantTruth { truthBytes.append(contentsOf: "uid,cluster_id\n".utf8) }
    var written = 0
    let generator = self
    try Parallel.ordered(blocks, workers: threads) { b in
      generator.block(slots[(b * perBlock)..<min(slots.count, (b + 1) * perBlock)], truth: wantTruth)
    } consume: { b, block in
      for (v, n) in block.byVersion.enumerated() where n > 0 {
        summary.byVersion[VCardVersion.allCases[v].rawValue, default: 0] += n
      }
      vcardBytes.append(contentsOf: block.vcard)
      truthBytes.append(contentsOf: block.truth)
      if vcardBytes.count >= chunkSize {
        summary.bytes += vcardBytes.count
        try vcard(vcardBytes)
        vcardBytes.removeAll(keepingCapacity: true)
      }
      if let truth, truthBytes.count >= chunkSize {
        try truth(truthBytes)
        truthBytes.removeAll(keepingCapacity: true)
      }
      let before = written
      written += block.cards
      if let progress, written / 10_000 > before / 10_000 { progress(written / 10_000 * 10_000) }
    }
    summary.bytes += vcardBytes.count
    if !vcardBytes.isEmpty { try vcard(vcardBytes) }
    if let truth, !truthBytes.isEmpty { try truth(truthBytes) }
    summary.contacts = slots.count
    progress?(slots.count)
    return summary
  }

  /// Cards a worker makes at a time.
  static let cardsPerBlock = 2048

  /// What one block of cards came to.
  struct Block: Sendable {
    var vcard: [UInt8] = []
    var truth: [UInt8] = []
    var byVersion = [Int](repeating: 0, count: VCardVersion.allCases.count)
    var cards = 0
  }

  /// The cards of `slots`, in order (each from its own random streams).
  func block(_ slots: ArraySlice<UInt64>, truth wantTruth: Bool) -> Block {
    let factory = PersonFactory(seed: options.seed)
    let renderer = CardRenderer(factory: factory)
    var emitter = VCardEmitter()
    var block = Block()
    for slot in slots {
      let personIndex = Int(slot >> 2)
      let dup = Int(slot & 3)
      // Regenerating the person is cheaper than caching it: the order is
      // shuffled, so a person's records are rarely next to each other.
      var base = factory.person(personIndex)
      if options.handKeyed { base = factory.handKeyed(base, index: personIndex) }
      var cardRNG = SplitMix64(seed: options.seed, stream: Stream.card, index: slot)
      let person: Person
      if dup == 0 {
        person = base
      } else {
        var r = SplitMix64(seed: options.seed, stream: Stream.duplicate, index: slot)
        person = options.handKeyed ? factory.handKeyedDuplicate(of: base, &r) : factory.duplicate(of: base, &r)
      }
      let version: VCardVersion
      switch options.version {
      case .fixed(let v): version = v
      case .mixed: version = [VCardVersion.v21, .v30, .v30, .v40][cardRNG.below(4)]
      }
      if let v = VCardVersion.allCases.firstIndex(of: version) { block.byVersion[v] += 1 }
      let uid = makeUID(&cardRNG)
      renderer.render(person, uid: uid, version: version, into: &emitter, &cardRNG)
      if wantTruth {
        block.truth.append(contentsOf: uid.utf8)
        block.truth.append(UInt8(ascii: ","))
        block.truth.append(contentsOf: String(personIndex).utf8)
        block.truth.append(UInt8(ascii: "\n"))
      }
      block.cards += 1
    }
    block.vcard = emitter.out
    return block
  }

  /// One entry per record: person index << 2 | duplicate number (0 = the
  /// original), shuffled.
  private func makeSlots(_ summary: inout GeneratorSummary) -> [UInt64] {
    let total = max(0, options.contacts)
    var slots: [UInt64] = []
    slots.reserveCapacity(total)
    var rng = SplitMix64(seed: options.seed, stream: Stream.slots, index: 0)
    var person: UInt64 = 0
    while slots.count < total {
      slots.append(person << 2)
      summary.people += 1
      if rng.chance(options.dupRate) {
        let copies = 1 + rng.below(3)
        var added = 0
        for d in 1...copies where slots.count < total {
          slots.append(person << 2 | UInt64(d))
          added += 1
        }
        summary.duplicates += added
        if added > 0 { summary.peopleWithDuplicates += 1 }
      }
      person += 1
    }
    rng.shuffle(&slots)
    return slots
  }

  private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

  /// A random (version 4 layout) UUID from the card's generator.
  private func makeUID(_ rng: inout SplitMix64) -> String {
    let a = rng.next()
    let b = rng.next()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(36)
    for i in 0..<16 {
      var v = UInt8(truncatingIfNeeded: (i < 8 ? a : b) >> (UInt64(i % 8) * 8))
      if i == 6 { v = v & 0x0F | 0x40 }
      if i == 8 { v = v & 0x3F | 0x80 }
      if i == 4 || i == 6 || i == 8 || i == 10 { bytes.append(UInt8(ascii: "-")) }
      bytes.append(Self.hex[Int(v >> 4)])
      bytes.append(Self.hex[Int(v & 0x0F)])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
