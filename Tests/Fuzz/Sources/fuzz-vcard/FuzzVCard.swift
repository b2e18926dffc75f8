import FuzzSupport

/// The vCard reader: no crash, the same table for every chunk size, write
/// (4.0) then read gives the same contacts, every card and every run of
/// stray text imported or reported at its first line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  ReaderCheck.run(data, size, VCardSpec.spec)
  return 0
}
