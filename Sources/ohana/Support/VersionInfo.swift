import Ohana

/// What `ohana --version` prints: the tool version, then one line per
/// component that wants to be named (the ICU version, once OhanaText
/// exposes it: add its line to `components`).
enum VersionInfo {
  static let tool = "0.1.0"

  /// Extra lines, e.g. "ICU 74.2". Hook for the text engine.
  static var components: [String] {
    ["ICU " + ICU.version, "libphonenumber metadata " + PhoneNumberEngine.metadataVersion]
  }

  static var text: String {
    (["ohana " + tool] + components).joined(separator: "\n")
  }
}
