import FuzzSupport

/// The NDJSON reader: no crash, the same table for every chunk size, write
/// then read gives the same contacts (what NDJSON keeps), every record
/// imported or reported at its first line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  ReaderCheck.run(data, size, NDJSONSpec.spec)
  return 0
}
