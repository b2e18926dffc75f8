import OhanaCore

/// Writes every e-mail field in its normalized form (``EmailText``): trimmed,
/// NFC, the domain in UTS #46 Unicode form and lower case. An address
/// whose syntax is refused keeps its typed text (trimmed), is counted
/// (`emails.invalid`, and `emails.invalid.<reason>`) and listed by its
/// contact's line in the notes (never its value). Counters also:
/// `emails.changed`, `emails.unchanged`. With ``comparisonKeys`` each
/// address also gets its mailbox key (``EmailText/comparisonKey(_:)``) in
/// the parameter `X-OHANA-KEY` (`emails.keys` counts them). An enricher:
/// keeps rows, order, other parameters and every other column.
public struct EmailNormalization: PostProcessor {
  public let role: StageRole
  public let comparisonKeys: Bool
  /// At most this many refused addresses are listed by line (all are counted).
  public static let listedLines = 1000

  public init(comparisonKeys: Bool = false, role: StageRole = .core) {
    self.comparisonKeys = comparisonKeys
    self.role = role
  }

  public var name: String { "normalize-emails" }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    var table = frame.table
    var values = Array(table.fields.value)
    var parameters = comparisonKeys ? Array(table.fields.parameters) : []
    var keyMemo: [StringID: String?] = [:]
    var keys = 0
    var memo: [StringID: (id: StringID, problem: EmailText.Problem?)] = [:]
    var changed = 0, unchanged = 0, invalid = 0
    var reasons: [EmailText.Problem: Int] = [:]
    var lines: [String] = []
    var pool = table.pool
    // Most addresses are normal already, known from their bytes: that test
    // runs on every core, and only the others are worked on here (all of
    // them with keys to write).
    let frozen = table
    let pending = Parallel.map(count: table.rowCount) { rows -> (fields: [(row: Int32, field: Int32)], present: Int) in
      var out: [(row: Int32, field: Int32)] = []
      var present = 0
      for row in rows {
        for f in frozen.fieldRange(of: row) where frozen.fields.kind[f] == .email {
          let typed = frozen.fields.value[f]
          guard typed.isPresent else { continue }
          present += 1
          if comparisonKeys || !frozen.pool.withBytes(of: typed, EmailText.isNormalASCII) {
            out.append((Int32(row), Int32(f)))
          }
        }
      }
      return (out, present)
    }
    let present = pending.reduce(0) { $0 + $1.present }
    if pending.allSatisfy(\.fields.isEmpty) {
      context.count("emails.changed", 0)
      context.count("emails.unchanged", present)
      return frame
    }
    for piece in pending {
      for (rowNumber, fieldNumber) in piece.fields {
        let row = Int(rowNumber), f = Int(fieldNumber)
        let typed = values[f]
        let answer: (id: StringID, problem: EmailText.Problem?)
        if pool.withBytes(of: typed, EmailText.isNormalASCII) {
          answer = (typed, nil)
        } else if let known = memo[typed] {
          answer = known
        } else {
          let r = EmailText.normalized(pool.string(typed) ?? "")
          let id = r.address == pool.string(typed) ? typed : (r.address.isEmpty ? StringID.absent : pool.intern(r.address))
          answer = (id, r.problem)
          memo[typed] = answer
        }
        if let p = answer.problem {
          invalid += 1
          reasons[p, default: 0] += 1
          if lines.count < Self.listedLines {
            let line = row < table.sourceLine.count ? Int(table.sourceLine[row]) : 0
            let at = line > 0 ? "line \(line)" : "contact \(row + 1)"
            lines.append("\(at): an e-mail address was refused (\(p.rawValue)); left as typed")
          }
        }
        if answer.id != typed {
          values[f] = answer.id
          changed += 1
        } else {
          unchanged += 1
        }
        if comparisonKeys {
          let key: String?
          if let k = keyMemo[answer.id] { key = k } else {
            key = pool.string(answer.id).flatMap(EmailText.comparisonKey)
            keyMemo[answer.id] = key
          }
          if key != nil { keys += 1 }
          parameters[f] = ComparisonKeys.set(key, parameters: parameters[f], label: table.fields.label[f], pool: &pool)
        }
      }
    }
    table.pool = pool
    unchanged = present - changed
    table.fields.value = StringColumn(values)
    if comparisonKeys {
      table.fields.parameters = StringColumn(parameters)
      context.count("emails.keys", keys)
    }
    context.count("emails.changed", changed)
    context.count("emails.unchanged", unchanged)
    if invalid > 0 {
      context.count("emails.invalid", invalid)
      for (p, c) in reasons { context.count("emails.invalid.\(p.rawValue)", c) }
    }
    for l in lines { context.note(l) }
    if invalid > lines.count { context.note("\(invalid - lines.count) more e-mail addresses were refused") }
    var result = frame
    result.table = table
    return result
  }
}
