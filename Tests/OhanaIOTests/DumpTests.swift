import Foundation
import OhanaCore
import Testing
@testable import OhanaIO

@Test(.enabled(if: ProcessInfo.processInfo.environment["OHANA_DUMP"] != nil)) func dump() throws {
  guard let dir = corpusDirectory() else { return }
  for f in (ProcessInfo.processInfo.environment["OHANA_DUMP"] ?? "").split(separator: ",") {
    let r = try ContactIO.read(path: dir.appendingPathComponent(String(f)).path)
    for c in r.table.contacts {
      print(f, c.fullName ?? "-", c.familyName ?? "-", c.givenName ?? "-", c.organization ?? "-", c.note ?? "-")
      for x in c.fields { print("   F", x.kind, x.label ?? "-", x.value, x.parameters ?? "-", x.group ?? "-") }
      for x in c.addresses { print("   A", x.label ?? "-", x.street ?? "-", x.locality ?? "-", x.parameters ?? "-") }
      for x in c.extras { print("   X", x.name, x.parameters ?? "-", x.value.prefix(60)) }
    }
  }
}
