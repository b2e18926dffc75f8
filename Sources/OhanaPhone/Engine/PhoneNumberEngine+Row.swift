extension PhoneNumberEngine {
  /// Appends the tab-separated result columns for one raw number:
  /// `parse_ok, e164, international, national, rfc3966, is_valid, number_type`.
  ///
  /// When parsing fails: `0`, four empty format columns, `0`, and the
  /// failure kind (`NOT_A_NUMBER`...) in the type column. This is the row
  /// format of `ohana phone` and of the differential fixture.
  public func appendResultColumns(
    utf8 raw: some Collection<UInt8>, defaultRegion: RegionCode, to out: inout [UInt8]
  ) {
    do {
      let number = try parse(utf8: raw, defaultRegion: defaultRegion)
      out.append(0x31)
      out.append(0x09)
      appendAllFormats(number, to: &out)
      let type = classify(number).type
      out.append(0x09)
      out.append(type == .unknown ? 0x30 : 0x31)
      out.append(0x09)
      out.append(contentsOf: type.description.utf8)
    } catch {
      out.append(contentsOf: [0x30, 0x09, 0x09, 0x09, 0x09, 0x09, 0x30, 0x09])
      out.append(contentsOf: error.code.description.utf8)
    }
  }
}
