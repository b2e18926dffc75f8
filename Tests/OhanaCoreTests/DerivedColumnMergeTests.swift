import Testing
@testable import OhanaCore

/// Merging derived columns of parts (`ContactTable.concatenate`): a name typed
/// differently in two parts becomes text, the way one part holding both
/// kinds of value types it; no value of either part is dropped. Expectations
/// are written by hand.
@Suite struct DerivedColumnMergeTests {
  /// A table of `n` contacts (uids `prefix0`, `prefix1`, ...).
  func table(_ n: Int, _ prefix: String) -> ContactTable {
    ContactTable(contacts: (0..<n).map { Contact(uid: "\(prefix)\($0)") })
  }

  func bits(_ n: Int, _ rows: [Int]) -> Bitmap { Bitmap(count: n, setting: rows) }

  /// `name`'s value on every contact row.
  func values(_ t: ContactTable, _ name: String) -> [PropertyValue?] {
    (0..<t.rowCount).map { t.contact(at: $0).properties[name] }
  }

  func isText(_ c: DerivedColumn?) -> Bool { if case .string? = c { true } else { false } }

  @Test func intThenTextBecomesText() {
    var a = table(3, "a")
    a.setColumn("p", .int([1, 99, -12], valid: bits(3, [0, 2])))
    var b = table(2, "b")
    // Strings interned in another order than `a`'s pool, so ids must be remapped.
    _ = b.intern("1")
    b.setColumn("p", .string([b.intern("x"), .absent]))
    let c = ContactTable.concatenate([a, b])
    #expect(isText(c.annotations[column: "p"]))
    #expect(values(c, "p") == [.string("1"), nil, .string("-12"), .string("x"), nil])
  }

  @Test func textThenIntBecomesText() {
    var a = table(1, "a")
    a.setColumn("p", .string([a.intern("x")]))
    var b = table(2, "b")
    b.setColumn("p", .int([Int64.min, 0], valid: bits(2, [0, 1])))
    let c = ContactTable.concatenate([a, b])
    #expect(isText(c.annotations[column: "p"]))
    #expect(values(c, "p") == [.string("x"), .string("-9223372036854775808"), .string("0")])
  }

  @Test func boolThenIntBecomesText() {
    var a = table(3, "a")
    a.setColumn("q", .bool(bits(3, [0]), valid: bits(3, [0, 1])))
    var b = table(1, "b")
    b.setColumn("q", .int([2], valid: bits(1, [0])))
    let c = ContactTable.concatenate([a, b])
    #expect(isText(c.annotations[column: "q"]))
    #expect(values(c, "q") == [.string("true"), .string("false"), nil, .string("2")])
  }

  @Test func intThenBoolBecomesText() {
    var a = table(1, "a")
    a.setColumn("q", .int([7], valid: bits(1, [0])))
    var b = table(2, "b")
    b.setColumn("q", .bool(bits(2, [1]), valid: bits(2, [0, 1])))
    let c = ContactTable.concatenate([a, b])
    #expect(values(c, "q") == [.string("7"), .string("false"), .string("true")])
  }

  @Test func intAndIntStaysInt() {
    var a = table(1, "a")
    a.setColumn("p", .int([5], valid: bits(1, [0])))
    var b = table(2, "b")
    b.setColumn("p", .int([0, 7], valid: bits(2, [1])))
    let c = ContactTable.concatenate([a, b])
    guard case .int? = c.annotations[column: "p"] else {
      Issue.record("p is not an int column: \(String(describing: c.annotations[column: "p"]))")
      return
    }
    #expect(values(c, "p") == [.int(5), nil, .int(7)])
  }

  @Test func boolAndBoolStaysBool() {
    var a = table(1, "a")
    a.setColumn("v", .bool(bits(1, [0]), valid: bits(1, [0])))
    var b = table(1, "b")
    b.setColumn("v", .bool(bits(1, []), valid: bits(1, [0])))
    let c = ContactTable.concatenate([a, b])
    guard case .bool? = c.annotations[column: "v"] else {
      Issue.record("v is not a bool column")
      return
    }
    #expect(values(c, "v") == [.bool(true), .bool(false)])
  }

  @Test func columnAbsentOnOneSideKeepsItsTypeAndValues() {
    var a = table(2, "a")
    a.setColumn("s", .string([a.intern("left"), .absent]))
    a.setTag("t", bits(2, [1]))
    var b = table(2, "b")
    b.setColumn("n", .int([0, 3], valid: bits(2, [1])))
    b.setTag("u", bits(2, [0]))
    let c = ContactTable.concatenate([a, b])
    #expect(isText(c.annotations[column: "s"]))
    guard case .int? = c.annotations[column: "n"] else {
      Issue.record("n is not an int column")
      return
    }
    #expect(values(c, "s") == [.string("left"), nil, nil, nil])
    #expect(values(c, "n") == [nil, nil, nil, .int(3)])
    #expect((0..<4).map { c.contact(at: $0).tags } == [[], ["t"], ["u"], []])
  }

  /// Int, then text, then int again: the third part's ints join a text column.
  @Test func threePartsIntTextInt() {
    var a = table(1, "a")
    a.setColumn("p", .int([1], valid: bits(1, [0])))
    var b = table(1, "b")
    b.setColumn("p", .string([b.intern("two")]))
    var d = table(1, "d")
    d.setColumn("p", .int([3], valid: bits(1, [0])))
    let c = ContactTable.concatenate([a, b, d])
    #expect(values(c, "p") == [.string("1"), .string("two"), .string("3")])
  }

  /// Field columns merge by the same rule.
  @Test func fieldColumnsOfDifferentTypesBecomeText() {
    var a = ContactTable(contacts: [Contact(uid: "a", fields: [ContactField(kind: .email, value: "a@x.org")])])
    a.setFieldColumn("f", .bool(bits(1, [0]), valid: bits(1, [0])))
    var b = ContactTable(contacts: [Contact(uid: "b", fields: [ContactField(kind: .email, value: "b@x.org")])])
    b.setFieldColumn("f", .string([b.intern("maybe")]))
    let c = ContactTable.concatenate([a, b])
    #expect(c.contacts.map { $0.fields.first?.properties["f"] } == [.string("true"), .string("maybe")])
  }

  /// Building a table from contact values types a name over all of them.
  @Test func contactsWithMixedTypesBuildText() {
    let t = ContactTable(contacts: [
      Contact(uid: "1", properties: ["p": .int(1), "q": .bool(true)]),
      Contact(uid: "2", properties: ["p": .string("x"), "q": .bool(false)]),
      Contact(uid: "3", properties: ["p": .bool(false)]),
    ])
    #expect(values(t, "p") == [.string("1"), .string("x"), .string("false")])
    #expect(values(t, "q") == [.bool(true), .bool(false), nil])
  }
}
