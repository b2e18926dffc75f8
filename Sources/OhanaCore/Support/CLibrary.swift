import COhanaCore

/// The C library this build needs and the one it runs on (README "Where it
/// runs"). The release archive's binary and the wheel's library are linked
/// against glibc 2.28's symbol versions (Scripts/glibc-floor.sh) and say
/// "2.28"; any other build needs the glibc it was linked against.
public enum CLibrary {
  /// The oldest glibc this build runs on, "2.28" or the build machine's.
  public static var glibcFloor: String { "2.\(ohana_glibc_floor_minor())" }

  /// The glibc the process runs on, as the C library says ("2.36").
  public static var glibcRunning: String { String(cString: ohana_glibc_running()) }
}
