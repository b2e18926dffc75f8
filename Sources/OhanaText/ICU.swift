/// Facts about the ICU library OhanaText runs on.
public enum ICU {
  /// The ICU version, e.g. `"72.1"`. The corresponding C function is `u_getVersion`.
  public static var version: String { icu_versionString() }
}
