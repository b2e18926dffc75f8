import OhanaCore
import OhanaPhone
import OhanaText

/// What a build is made of, for a user checking a worker before a job:
/// `ohana --version` prints it, and Python's `ohana.build_info()` returns
/// it as a dictionary.
public enum BuildInfo {
  /// The engine's version.
  public static let version = "0.1.0"

  /// The fields in order: a key (Python's dictionary key) and its value.
  /// `glibc` is the oldest glibc the build runs on, `glibc_running` the
  /// one it runs on now; `icu` the ICU linked (collation, case folding),
  /// `phone_metadata` libphonenumber's metadata the phone tables were
  /// generated from.
  public static var fields: [(key: String, value: String)] {
    [
      ("version", version),
      ("icu", ICU.version),
      ("phone_metadata", PhoneNumberEngine.metadataVersion),
      ("glibc", CLibrary.glibcFloor),
      ("glibc_running", CLibrary.glibcRunning),
    ]
  }

  /// The fields as `ohana --version` prints them after its first line:
  /// `ICU 72.1`, `libphonenumber metadata 9.0.x`, `glibc 2.28 or later
  /// (running 2.36)`. Made from ``fields``, so the two cannot disagree.
  public static var componentLines: [String] {
    let f = Dictionary(fields, uniquingKeysWith: { a, _ in a })
    return [
      "ICU " + (f["icu"] ?? ""),
      "libphonenumber metadata " + (f["phone_metadata"] ?? ""),
      "glibc \(f["glibc"] ?? "") or later (running \(f["glibc_running"] ?? ""))",
    ]
  }

  /// `key=value` lines, the form the C interface hands to Python.
  public static var keyValueText: String {
    fields.map { "\($0.key)=\($0.value)\n" }.joined()
  }
}
