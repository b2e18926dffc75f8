/// A compiled IDD or national-prefix-for-parsing pattern: a tiny
/// backtracking program over ASCII digits with Python `re.match` semantics
/// (anchored at the start, leftmost-first alternation, greedy `?` and
/// `{n,m}`, capture groups, `$`).
///
/// These are the only metadata patterns whose match end and groups matter
/// (about 80 distinct ones, each run at most a few times per parse), so a
/// backtracker is exact and cheap here. Everything else runs on DFAs.
struct PrefixPattern: Sendable {
  enum Op: Sendable {
    case digits(UInt16)  // bit d set: digit d accepted
    case split(Int, Int)  // try the first, then the second
    case jump(Int)
    case save(Int)
    case end  // `$`
    case match
  }

  /// Result of a match: end offset and up to 8 group spans (-1 when unset).
  struct Match {
    var end: Int
    var spans: InlineArray<16, Int16>
    var groupCount: Int

    func group(_ n: Int) -> Range<Int>? {
      guard n >= 1, n <= groupCount else { return nil }
      let s = Int(spans[2 * n - 2])
      let e = Int(spans[2 * n - 1])
      guard s >= 0, e >= s else { return nil }
      return s..<e
    }
  }

  private(set) var ops: [Op] = []
  private(set) var groupCount = 0

  /// Compiles the pattern; nil if it uses anything outside the subset.
  init?(_ source: [UInt8]) {
    var parser = Parser(source: source)
    guard let ast = parser.parseAlternation(), parser.position == source.count, parser.groups <= 8 else {
      return nil
    }
    groupCount = parser.groups
    emit(ast)
    ops.append(.match)
  }

  /// Matches at the start of `digits[from...]` (offsets are relative to `from`).
  func match(_ digits: DigitString, from: Int = 0) -> Match? {
    var spans = InlineArray<16, Int16>(repeating: -1)
    let end = run(0, from, digits, &spans)
    guard end >= 0 else { return nil }
    var m = Match(end: end - from, spans: spans, groupCount: groupCount)
    for i in 0..<16 where m.spans[i] >= 0 { m.spans[i] -= Int16(from) }
    return m
  }

  private func run(_ start: Int, _ position: Int, _ digits: DigitString, _ spans: inout InlineArray<16, Int16>) -> Int {
    var pc = start
    var sp = position
    while true {
      switch ops[pc] {
      case .digits(let mask):
        guard sp < digits.count else { return -1 }
        let d = Int(digits[sp]) - 0x30
        guard d >= 0, d <= 9, mask & (1 << UInt16(d)) != 0 else { return -1 }
        sp += 1
        pc += 1
      case .split(let first, let second):
        let r = run(first, sp, digits, &spans)
        if r >= 0 { return r }
        pc = second
      case .jump(let target):
        pc = target
      case .save(let slot):
        let old = spans[slot]
        spans[slot] = Int16(sp)
        let r = run(pc + 1, sp, digits, &spans)
        if r >= 0 { return r }
        spans[slot] = old
        return -1
      case .end:
        guard sp == digits.count else { return -1 }
        pc += 1
      case .match:
        return sp
      }
    }
  }

  // MARK: Compilation

  indirect enum Node {
    case digits(UInt16)
    case sequence([Node])
    case alternation([Node])
    case repeating(Node, Int, Int)
    case group(Node, Int)
    case end
  }

  private mutating func emit(_ node: Node) {
    switch node {
    case .digits(let mask):
      ops.append(.digits(mask))
    case .end:
      ops.append(.end)
    case .sequence(let items):
      for item in items { emit(item) }
    case .group(let inner, let index):
      ops.append(.save(2 * index - 2))
      emit(inner)
      ops.append(.save(2 * index - 1))
    case .alternation(let items):
      var jumps: [Int] = []
      for (i, item) in items.enumerated() {
        if i < items.count - 1 {
          let split = ops.count
          ops.append(.split(split + 1, -1))
          emit(item)
          jumps.append(ops.count)
          ops.append(.jump(-1))
          ops[split] = .split(split + 1, ops.count)
        } else {
          emit(item)
        }
      }
      for j in jumps { ops[j] = .jump(ops.count) }
    case .repeating(let inner, let low, let high):
      for _ in 0..<low { emit(inner) }
      // Greedy optional copies, nested: (x(x(x)?)?)?
      var splits: [Int] = []
      for _ in low..<high {
        splits.append(ops.count)
        ops.append(.split(ops.count + 1, -1))
        emit(inner)
      }
      for s in splits { ops[s] = .split(s + 1, ops.count) }
    }
  }

  struct Parser {
    let source: [UInt8]
    var position = 0
    var groups = 0

    init(source: [UInt8]) { self.source = source }

    var peek: UInt8? { position < source.count ? source[position] : nil }

    mutating func parseAlternation() -> Node? {
      var items: [Node] = []
      guard let first = parseSequence() else { return nil }
      items.append(first)
      while peek == UInt8(ascii: "|") {
        position += 1
        guard let next = parseSequence() else { return nil }
        items.append(next)
      }
      return items.count == 1 ? items[0] : .alternation(items)
    }

    mutating func parseSequence() -> Node? {
      var items: [Node] = []
      while let c = peek, c != UInt8(ascii: "|"), c != UInt8(ascii: ")") {
        guard let atom = parseAtom(), let quantified = parseQuantifier(atom) else { return nil }
        items.append(quantified)
      }
      return .sequence(items)
    }

    mutating func parseNumber() -> Int? {
      var value = 0
      var any = false
      while let c = peek, c >= 0x30, c <= 0x39 {
        value = value * 10 + Int(c - 0x30)
        position += 1
        any = true
        if value > 64 { return nil }
      }
      return any ? value : nil
    }

    mutating func parseQuantifier(_ atom: Node) -> Node? {
      if peek == UInt8(ascii: "?") {
        position += 1
        return .repeating(atom, 0, 1)
      }
      guard peek == UInt8(ascii: "{") else { return atom }
      position += 1
      guard let low = parseNumber() else { return nil }
      var high = low
      if peek == UInt8(ascii: ",") {
        position += 1
        guard let h = parseNumber() else { return nil }
        high = h
      }
      guard peek == UInt8(ascii: "}"), high >= low else { return nil }
      position += 1
      return .repeating(atom, low, high)
    }

    mutating func parseAtom() -> Node? {
      guard let c = peek else { return nil }
      position += 1
      switch c {
      case UInt8(ascii: "("):
        var index = 0
        if peek == UInt8(ascii: "?") {
          guard position + 1 < source.count, source[position + 1] == UInt8(ascii: ":") else { return nil }
          position += 2
        } else {
          groups += 1
          index = groups
        }
        guard let inner = parseAlternation(), peek == UInt8(ascii: ")") else { return nil }
        position += 1
        return index > 0 ? .group(inner, index) : inner
      case UInt8(ascii: "["):
        var mask: UInt16 = 0
        while let a = peek, a != UInt8(ascii: "]") {
          position += 1
          if a == UInt8(ascii: "\\") {
            guard peek == UInt8(ascii: "d") else { return nil }
            position += 1
            mask |= 0x3FF
            continue
          }
          guard a >= 0x30, a <= 0x39 else { return nil }
          if peek == UInt8(ascii: "-"), position + 1 < source.count, source[position + 1] != UInt8(ascii: "]") {
            let b = source[position + 1]
            guard b >= a, b <= 0x39 else { return nil }
            position += 2
            for d in a...b { mask |= 1 << UInt16(d - 0x30) }
          } else {
            mask |= 1 << UInt16(a - 0x30)
          }
        }
        guard peek == UInt8(ascii: "]") else { return nil }
        position += 1
        return .digits(mask)
      case UInt8(ascii: "\\"):
        guard peek == UInt8(ascii: "d") else { return nil }
        position += 1
        return .digits(0x3FF)
      case UInt8(ascii: "$"):
        return .end
      case 0x30...0x39:
        return .digits(1 << UInt16(c - 0x30))
      default:
        return nil
      }
    }
  }
}
