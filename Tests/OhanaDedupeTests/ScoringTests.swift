import OhanaCore
import Testing
import _OhanaTestSupport

@testable import OhanaDedupe

@Suite struct ScoringTests {
  func vector(_ a: Contact, _ b: Contact) -> ComparisonVector {
    let keys = ContactKeys(table: ContactTable(contacts: [a, b]), configuration: DedupeConfiguration())
    return PairScorer(keys: keys).vector(0, 1)
  }

  @Test func levels() {
    let a = Contact(
      givenName: "Katherine", familyName: "Smith", birthday: "1980-02-03",
      fields: [ContactField(kind: .phone, value: "(312) 644-3332"), ContactField(kind: .email, value: "kate@x.org")],
      addresses: [PostalAddress(street: "1 Main St", postalCode: "60601")])
    let b = Contact(
      givenName: "Kate", familyName: "Smyth", birthday: "1980-02-03",
      fields: [ContactField(kind: .phone, value: "+1 312 644 3332"), ContactField(kind: .email, value: "KATE@X.ORG")],
      addresses: [PostalAddress(street: "1 MAIN ST.", postalCode: "60601")])
    let v = vector(a, b)
    #expect(v[.givenName] == 1)  // nickname
    #expect(v[.familyName] == 3)  // smith / smyth: jw 0.893
    #expect(v[.phone] == 1)
    #expect(v[.email] == 1)
    #expect(v[.birthday] == 1)
    #expect(v[.address] == 1)
  }

  @Test func conflictsAndNulls() {
    let a = Contact(givenName: "Ann", familyName: "Lee", birthday: "1980-02-03",
                    fields: [ContactField(kind: .phone, value: "555 123 4567")])
    let b = Contact(givenName: "Zoe", familyName: "Lee", birthday: "1975-01-01")
    let v = vector(a, b)
    #expect(v[.givenName] == 5)
    #expect(v[.birthday] == 4)
    #expect(v[.phone] == 0)
    #expect(v[.email] == 0)
    let w = FellegiSunterModel.defaults
    #expect(w.weight(v) < 0)
  }

  @Test func swappedNamesAgree() {
    let v = vector(Contact(givenName: "Lee", familyName: "Ann"), Contact(givenName: "Ann", familyName: "Lee"))
    #expect(v[.givenName] == 1 && v[.familyName] == 1)
  }

  @Test func defaultWeightsSeparateDuplicatesFromHouseholds() {
    let m = FellegiSunterModel.defaults
    var dup = ComparisonVector(rawValue: 0)
    dup[.givenName] = 1; dup[.familyName] = 1; dup[.phone] = 1
    var household = ComparisonVector(rawValue: 0)
    household[.givenName] = 4; household[.familyName] = 1; household[.phone] = 1; household[.address] = 1
    household[.email] = 2
    let t = DedupeConfiguration().threshold
    #expect(m.weight(dup) >= t)
    #expect(m.weight(household) < t)
  }

  @Test func emRecoversMGreaterThanU() {
    // Synthetic vectors: matches agree on each comparison with p = 0.9,
    // non-matches with p = 0.15; 30% matches.
    var rng = SeededRandom(seed: 7)
    var counts = [Int](repeating: 0, count: ComparisonVector.space)
    for _ in 0..<20000 {
      let match = rng.chance(0.3)
      var v = ComparisonVector(rawValue: 0)
      for c in Comparison.allCases {
        let agree = rng.chance(match ? 0.9 : 0.15)
        v[c] = agree ? 1 : c.levelCount - 1
      }
      counts[Int(v.rawValue)] += 1
    }
    // Start from a flat, uninformative-ish model.
    let cs = Comparison.allCases
    let start = FellegiSunterModel(
      m: cs.map { c in [0] + (1..<c.levelCount).map { $0 == 1 ? 0.6 : 0.4 / Double(c.levelCount - 2) } },
      u: cs.map { c in [0] + (1..<c.levelCount).map { $0 == 1 ? 0.3 : 0.7 / Double(c.levelCount - 2) } },
      lambda: 0.5)
    let fit = start.estimate(from: counts, iterations: 60)
    for c in cs {
      #expect(fit.m[c.rawValue][1] > fit.u[c.rawValue][1] + 0.5, "\(c)")
      #expect(abs(fit.m[c.rawValue][1] - 0.9) < 0.05, "\(c) m=\(fit.m[c.rawValue][1])")
      #expect(abs(fit.u[c.rawValue][1] - 0.15) < 0.05, "\(c) u=\(fit.u[c.rawValue][1])")
    }
    #expect(abs(fit.lambda - 0.3) < 0.05)
  }

  @Test func vectorPacking() {
    var v = ComparisonVector(rawValue: 0)
    for c in Comparison.allCases { v[c] = c.levelCount - 1 }
    for c in Comparison.allCases { #expect(v[c] == c.levelCount - 1) }
    #expect(Int(v.rawValue) < ComparisonVector.space)
    #expect(v.description.contains("given=different"))
  }
}
