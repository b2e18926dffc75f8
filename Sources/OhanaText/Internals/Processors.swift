import OhanaCore

/// The worker count (``Workers/count``: `--threads`, `OHANA_THREADS`, else
/// the CPUs this process may use), at least 1.
func activeProcessorCount() -> Int { Workers.count }
