#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The number of online processors (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
func activeProcessorCount() -> Int {
  #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  #else
    return 1
  #endif
}
