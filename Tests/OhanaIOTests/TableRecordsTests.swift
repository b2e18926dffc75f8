import OhanaIO
import Testing

/// `TableRows.records`: a table's records matched to the contacts read
/// from them, the layout Parquet output is built from. The expectations are
/// RFC 4180's reading of the text, worked out by hand.
@Suite struct TableRecordsTests {
  // Records start on lines 2 (1,"x,y"), 3 (blank), 4 (a quoted line
  // break, to line 5) and 6 (more cells than the header).
  static let text = Array("a,b\n1,\"x,y\"\n,\n2,\"multi\nline\"\n3,4,5\n".utf8)
  // The reader made contacts of the records on lines 2 and 4.
  static let lines: [UInt32] = [2, 4]

  @Test func blankRecordsLeftOutAsTheCSVOutputLeavesThem() {
    let r = TableRows.records(Self.text, delimiter: UInt8(ascii: ","), lines: Self.lines, cells: true, keepBlank: false)
    #expect(r.header == ["a", "b"])
    #expect(r.rows == [0, 1, -1])
    #expect(r.columns == [["1", "2", "3"], ["x,y", "multi\nline", "4"]])
    #expect(r.longRecords == 1)
  }

  @Test func blankRecordsKeptForAParquetTable() {
    let r = TableRows.records(Self.text, delimiter: UInt8(ascii: ","), lines: Self.lines, cells: true, keepBlank: true)
    #expect(r.rows == [0, -1, 1, -1])
    #expect(r.columns == [["1", nil, "2", "3"], ["x,y", nil, "multi\nline", "4"]])
  }

  @Test func withoutCellsOnlyTheRows() {
    let r = TableRows.records(Self.text, delimiter: UInt8(ascii: ","), lines: Self.lines, cells: false, keepBlank: true)
    #expect(r.rows == [0, -1, 1, -1])
    #expect(r.columns.isEmpty)
  }

  @Test func anUnterminatedQuoteIsOneLastRecord() {
    let text = Array("a,b\n1,2\n3,\"open\n".utf8)
    let r = TableRows.records(text, delimiter: UInt8(ascii: ","), lines: [2], cells: true, keepBlank: false)
    #expect(r.rows == [0, -1])
    #expect(r.columns[0] == ["1", "3,\"open\n"])
  }
}
