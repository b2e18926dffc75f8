import ArgumentParser
import Ohana

/// The processors `ohana process` can run, one flag each.
///
/// To add a processor: declare its flag here and add one line to
/// `stages()`, at the place in the chain where it belongs.
struct ProcessingOptions: ParsableArguments {
  @Option(
    name: .customLong("require"),
    help: "Keep contacts that have this (repeatable): phone, email, url, impp, address, photo, or an attribute such as givenName.")
  var require: [RequirementName] = []

  @Option(name: .customLong("split"), help: "One contact per field of this kind: phone or email.")
  var split: FieldKindName?

  @Flag(help: "Add per-contact statistics (stats.phoneCount, stats.emailCount, stats.hasMobile...).")
  var stats = false

  @Flag(help: "Reverse the order of the contacts.")
  var reverse = false

  @Option(name: .customLong("disable"), help: "Skip the stage of this name (repeatable), e.g. stats or required-phone.")
  var disable: [String] = []

  /// The processors, in the order they run.
  func stages() -> [any PostProcessor] {
    var s: [any PostProcessor] = []
    for r in require { s.append(RequiredField(r.requirement)) }
    if let split { s.append(SplitOnFieldType(split.kind)) }
    if stats { s.append(Statistics()) }
    if reverse { s.append(ReverseOrder()) }
    return s
  }
}

struct RequirementName: ExpressibleByArgument, Sendable {
  var requirement: Requirement
  init?(argument: String) {
    guard let r = Requirement(name: argument) else { return nil }
    requirement = r
  }
}

struct FieldKindName: ExpressibleByArgument, Sendable {
  var kind: FieldKind
  init?(argument: String) {
    guard let k = FieldKind(name: argument) else { return nil }
    kind = k
  }
  static var defaultCompletionKind: CompletionKind { .list(["phone", "email", "url", "impp"]) }
}
