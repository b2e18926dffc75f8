/// The trimming the readers and the option parsers share: one definition
/// instead of a private copy per file.
extension StringProtocol {
  /// Without spaces and tabs at either end (a cell, a list item, an
  /// option's value as typed).
  package var trimmingBlanks: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }

  /// Without white space of any kind (Unicode's, line ends included) at
  /// either end.
  package var trimmingWhitespace: String {
    var s = Substring(self)
    while let f = s.first, f.isWhitespace { s.removeFirst() }
    while let l = s.last, l.isWhitespace { s.removeLast() }
    return String(s)
  }
}
