import OhanaCore

/// Reading vCard text: chunking at card boundaries and the per-chunk parse.
enum VCardReader {
  /// Cut after whole cards: at the last line that starts with BEGIN:VCARD.
  static func splitter(_ buf: UnsafeBufferPointer<UInt8>) -> Int? {
    VCardLexer.lastCardStart(in: buf)
  }

  static func parseChunk(_ chunk: InputChunk, options: ReadOptions) -> PartialResult {
    // About 300 bytes and 3 fields per card in typical exports.
    let estimate = chunk.bytes.count / 300 + 16
    var parser = VCardCardParser(
      fallbackCharset: options.fallbackCharset,
      strings: StringBatch(capacity: estimate * 6, bytes: chunk.bytes.count * 3 / 4),
      builder: ChunkBuilder(contacts: estimate, fields: estimate * 3, addresses: estimate / 2))
    parser.declaredCharset = options.declaredCharset.map { Array($0.utf8) }
    let lexer = VCardLexer(maxLineBytes: options.maxLineBytes)
    var card = VCardCard()
    let lines = chunk.bytes.withUnsafeBufferPointer { buf in
      lexer.run(
        buf, firstLine: chunk.firstLine, card: &card,
        onCard: { parser.parse(card: &$0, chunk: buf) },
        onError: { line, reason in
          // Stray text outside any card: skipped (it is not a record).
          parser.errors.append(InputError(line: line, reason: reason))
        })
    }
    return PartialResult(
      table: parser.builder.buildDeferred(idLimit: parser.strings.count), strings: parser.strings, errors: parser.errors,
      recordsRead: parser.cardsRead, recordsSkipped: parser.cardsSkipped,
      byteCount: chunk.bytes.count, lineCount: chunk.relativeLines ? lines : nil,
      undeclaredValues: parser.undeclaredValues, undeclaredText: parser.undeclaredText)
  }
}
