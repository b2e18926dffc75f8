import OhanaText
import Testing

@Suite struct KeySortTests {
  /// The radix order agrees with ICU's own pairwise comparison
  /// (`ucol_strcollUTF8`), and ties keep input order.
  @Test(arguments: [("de", UInt64(1)), ("sv", 2), ("ja", 3), ("root", 4), ("de-u-co-phonebk", 5)])
  func keyOrderAgreesWithPairwiseICU(locale: String, seed: UInt64) throws {
    let collator = try Collator(locale: locale)
    let names = randomNames(count: 400, seed: seed)
    let order = collator.keyOrder(names)
    #expect(order.sorted() == Array(0..<names.count))
    for k in 1..<order.count {
      let (i, j) = (order[k - 1], order[k])
      let c = collator.compare(names[i], names[j])
      #expect(c != .descending, "\(names[i]) > \(names[j])")
      if c == .same { #expect(i < j, "tie out of input order") }
    }
    // And with a comparison sort that uses ICU compare directly.
    let byCompare = names.indices.sorted { a, b in
      let c = collator.compare(names[a], names[b])
      return c == .ascending || (c == .same && a < b)
    }
    #expect(order == byCompare)
  }

  @Test func primaryStrengthTiesKeepInputOrder() throws {
    let primary = try Collator(locale: "en", strength: .primary)
    let names = ["b", "A", "a", "á", "B", "Á"]
    #expect(primary.keySorted(names) == ["A", "a", "á", "Á", "b", "B"])
    let keys = primary.sortKeys(for: ByteStrings(names))
    let ranks = KeySort.ranks(keys)
    #expect(ranks.distinctCount == 2)
    #expect(ranks.ranks == [1, 0, 0, 0, 1, 0])
  }

  @Test func equalStringsAndEmptyStringsAndLongCommonPrefixes() throws {
    let en = try Collator(locale: "en")
    let prefix = String(repeating: "Abcdefghij", count: 5)
    let names = [prefix + "b", "", prefix + "a", prefix, "x", "", prefix + "a", prefix + "ab"]
      + (0..<40).map { prefix + String($0 % 7) }
    let order = en.keyOrder(names)
    for k in 1..<order.count {
      let (i, j) = (order[k - 1], order[k])
      let c = en.compare(names[i], names[j])
      #expect(c != .descending)
      if c == .same { #expect(i < j) }
    }
    #expect(names[order[0]] == "" && names[order[1]] == "" && order[0] < order[1])
  }

  /// Large inputs take the parallel path; the result equals the sequential one.
  @Test func parallelRadixEqualsSequential() throws {
    let de = try Collator(locale: "de")
    let names = randomNames(count: 60_000, seed: 11)
    let keys = de.sortKeys(for: ByteStrings(names))
    let parallel = KeySort.order(keys, parallel: true)
    let sequential = KeySort.order(keys, parallel: false)
    #expect(parallel == sequential)
    for k in 1..<parallel.count {
      let a = keys[Int(parallel[k - 1])]
      let b = keys[Int(parallel[k])]
      let ok = a.lexicographicallyPrecedes(b) || (a.elementsEqual(b) && parallel[k - 1] < parallel[k])
      if !ok {
        Issue.record("keys out of order at \(k)")
        break
      }
    }
  }

  /// Many equal keys with long shared prefixes: equal groups larger than the
  /// insertion threshold, prefix reloads past 8 bytes, the parallel path.
  @Test func largeEqualGroupsStayInInputOrder() throws {
    let en = try Collator(locale: "en")
    let stem = "Maximilian Alexander von Hohenzollern-Sigmaringen "
    var rng = SeededRNG(seed: 5)
    let variants = (0..<50).map { stem + String(repeating: "x", count: $0 % 5) + String($0) }
    let names = (0..<40_000).map { _ in variants[Int(rng.next() % 50)] }
    let keys = en.sortKeys(for: ByteStrings(names))
    for parallel in [true, false] {
      let order = KeySort.order(keys, parallel: parallel)
      for k in 1..<order.count {
        let (i, j) = (Int(order[k - 1]), Int(order[k]))
        let c = en.compare(names[i], names[j])
        if c == .descending || (c == .same && i > j) {
          Issue.record("out of order at \(k) (parallel: \(parallel))")
          break
        }
      }
    }
    #expect(KeySort.ranks(keys).distinctCount == 50)
  }

  @Test func rowsSharingKeysAreOrderedByRankWithMissingLast() throws {
    let sv = try Collator(locale: "sv")
    let distinct = ["Östen", "Adam", "Zorn"]
    let ranks = KeySort.ranks(sv.sortKeys(for: ByteStrings(distinct)))
    #expect(ranks.ranks == [2, 0, 1])
    let keyOfRow: [UInt32] = [0, KeySort.noKey, 1, 2, 0, 1, KeySort.noKey]
    let order = KeySort.rowOrder(keyOfRow: keyOfRow, ranks: ranks)
    #expect(order == [2, 5, 3, 0, 4, 1, 6])
  }

  @Test func secondaryKeyComposesLeastSignificantFirst() {
    // rows: (primary, secondary)
    let primary: [UInt32] = [1, 0, 1, 0, 1]
    let secondary: [UInt32] = [2, 1, 0, 0, 2]
    let bySecondary = KeySort.stableOrder([0, 1, 2, 3, 4], rankOfRow: secondary, bucketCount: 3)
    let order = KeySort.stableOrder(bySecondary, rankOfRow: primary, bucketCount: 2)
    #expect(order == [3, 1, 2, 0, 4])
  }

  @Test func emptyInputs() throws {
    let en = try Collator(locale: "en")
    let keys = en.sortKeys(for: ByteStrings())
    #expect(keys.isEmpty)
    #expect(KeySort.order(keys).isEmpty)
    #expect(KeySort.ranks(keys).distinctCount == 0)
    #expect(KeySort.rowOrder(keyOfRow: [], ranks: KeySort.ranks(keys)).isEmpty)
  }

  @Test func validatedKeysFromBytes() {
    let keys = SortKeys(validating: ByteStrings(bytes: [3, 0, 2, 5, 0, 2, 0], offsets: [0, 2, 5, 7]))
    #expect(KeySort.order(keys) == [2, 1, 0])
  }

  @Test func byteStringsLayout() {
    var s = ByteStrings(["Müller", "", "佐藤"])
    #expect(s.count == 3)
    #expect(s.offsets == [0, 7, 7, 13])
    #expect(s.string(0) == "Müller" && s.string(1) == "" && s.string(2) == "佐藤")
    s.append(bytes: [0x41])
    #expect(s.range(3) == 13..<14)
  }
}
