import Ohana

/// What `ohana --version` prints: the tool's version, then the components
/// a user checks a worker by (BuildInfo): ICU, libphonenumber's metadata,
/// and the oldest glibc the build runs on beside the one it runs on.
enum VersionInfo {
  static let tool = BuildInfo.version

  static var components: [String] { BuildInfo.componentLines }

  static var text: String {
    (["ohana " + tool] + components).joined(separator: "\n")
  }
}
