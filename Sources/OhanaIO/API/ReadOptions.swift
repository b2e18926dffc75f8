import OhanaCore
import OhanaText

/// How ``ContactIO`` reads.
public struct ReadOptions: Sendable {
  /// Turn the first bad record into a thrown ``ContactIOError`` (code
  /// `.invalidInput`) instead of skipping it.
  public var strict: Bool
  /// Bytes per chunk. Input is read in chunks cut at record boundaries and
  /// chunks are parsed in parallel; a record bigger than a chunk grows it.
  /// Default 2 MiB: at most `workers + 2` chunks are in flight, so bigger
  /// chunks raise the read's peak memory, and smaller ones cost speed.
  public var chunkSize: Int
  /// Parallel parse tasks; defaults to the number of active cores.
  public var workers: Int
  /// Longest unfolded vCard line (or CSV / JSON record) accepted; a longer
  /// one fails its record. Default 8 MiB: room for a ~6 MB base64 photo.
  public var maxLineBytes: Int
  /// Charset used for vCard values that are not valid UTF-8 and carry no
  /// CHARSET parameter we can apply, when neither ``declaredCharset`` nor
  /// detection says otherwise. Default `windows-1252`.
  public var fallbackCharset: String
  /// What undeclared 8-bit text is, for the caller who knows: vCard values
  /// that are not valid UTF-8 and have no CHARSET parameter (of their own
  /// or on another property of their card) are decoded in this charset
  /// (any ICU name or alias: `windows-1255`, `Shift_JIS`, `KOI8-R`). A
  /// CHARSET parameter in the file still wins. nil (the default): ICU's
  /// detector guesses over all such text of the input (see
  /// ``minimumDetectionConfidence``), else ``fallbackCharset``. Valid UTF-8
  /// is never affected. An unknown name makes the read throw a
  /// ``ContactIOError`` with code `.charset`.
  public var declaredCharset: String?
  /// The confidence (0–100) ICU's detector must give its answer about
  /// undeclared 8-bit text before the read uses it instead of
  /// ``fallbackCharset``. Detection runs after the read, over the raw bytes
  /// of every such value (whole values, up to 256 KiB); when it names
  /// another charset and the input can be read again (a regular file, bytes
  /// in memory), the input is read again with that charset. A pipe cannot
  /// be read twice: detection looks at its first chunk before the read
  /// (``chunkSize``, 2 MiB by default); when that shows too little, the
  /// fallback stays and ``ReadResult/undeclaredCharset`` says what the
  /// detector found over the whole input. An
  /// answer less than 8 points ahead of one that reads the text as the
  /// fallback does is a tie, and keeps the fallback. Default 20, from
  /// measurement (`Benchmarks/compare/charset/README.md`): ICU scores names
  /// low (right answers on files of 100 to 3,000 cards: 23–95; ICU gives
  /// 10 to any charset it cannot rule out), and above 20 every wrong answer
  /// left was on a file of one to five cards. Above 100 turns detection off.
  public var minimumDetectionConfidence: Int
  /// Name for ``InputError/source`` (a path, `-`); set by the path reader.
  public var sourceName: String?
  /// How a table's columns (CSV) map onto the contact model: the user's
  /// roles, and whether the others are detected (``ColumnMapping``).
  public var columnMapping = ColumnMapping()
  /// The order of day and month in a table's dates; nil: decided per
  /// column from its values (``DateText/order(of:)``).
  public var dateOrder: DateText.Order? = nil
  /// The byte between a table's cells (`,`, `;`, tab, `|`); nil: sniffed
  /// from the header line.
  public var delimiter: UInt8? = nil
  /// A table's phone and e-mail cells holding several values, split at
  /// this text (`--multi-separator`, e.g. `;` or ` | `): a field each,
  /// blanks around each part trimmed. Nil: only Google's ` ::: ` splits a
  /// cell (and a cell of several e-mail addresses, which is recognised).
  public var multiSeparator: [UInt8]? = nil
  /// Called after each chunk is read with (bytes done, total bytes when
  /// known), on the worker thread that read it, one call at a time.
  public var progress: (@Sendable (_ done: Int, _ total: Int?) -> Void)?

  public init(
    strict: Bool = false, chunkSize: Int = 2 << 20, workers: Int? = nil, maxLineBytes: Int = 8 << 20,
    fallbackCharset: String = "windows-1252", declaredCharset: String? = nil,
    minimumDetectionConfidence: Int = ReadOptions.defaultDetectionConfidence, sourceName: String? = nil,
    progress: (@Sendable (_ done: Int, _ total: Int?) -> Void)? = nil
  ) {
    self.strict = strict
    self.chunkSize = chunkSize
    self.workers = max(1, workers ?? ProcessorInfo.activeCores)
    self.maxLineBytes = maxLineBytes
    self.fallbackCharset = fallbackCharset
    self.declaredCharset = declaredCharset
    self.minimumDetectionConfidence = minimumDetectionConfidence
    self.sourceName = sourceName
    self.progress = progress
  }
}

extension ReadOptions {
  /// The default ``minimumDetectionConfidence``.
  public static let defaultDetectionConfidence = 20
}

/// How a read decoded undeclared 8-bit text: vCard values that are not
/// valid UTF-8 and have no CHARSET parameter, of their own or on another
/// property of their card.
public struct UndeclaredCharset: Sendable, Hashable, CustomStringConvertible {
  /// Where the charset came from.
  public enum Source: String, Sendable, Hashable {
    /// ``ReadOptions/declaredCharset`` (`--charset`).
    case declared
    /// ICU's detector, at or above ``ReadOptions/minimumDetectionConfidence``.
    case detected
    /// ``ReadOptions/fallbackCharset``: detection was unsure, or the input
    /// could not be read again.
    case fallback
  }

  /// The charset the values were decoded in: as the options spell it, or
  /// ICU's name when detected.
  public var name: String
  public var source: Source
  /// How many values were decoded that way.
  public var values: Int
  /// ICU's best answer over the undeclared text, when detection ran (also
  /// when it was too unsure to be used, or could not be used).
  public var detection: CharsetDetector.Match?
  /// Set when detection over the whole input named another charset than
  /// the first chunk had shown (or the first chunk showed too little), and
  /// the input (a pipe) could not be read again: ``name`` is the fallback.
  public var couldNotReread: Bool
  /// Set when the input could not be read twice and detection looked at
  /// its first chunk only (``ReadOptions/chunkSize``), before the read.
  public var firstChunkOnly: Bool

  public init(
    name: String, source: Source, values: Int, detection: CharsetDetector.Match? = nil, couldNotReread: Bool = false,
    firstChunkOnly: Bool = false
  ) {
    self.name = name
    self.source = source
    self.values = values
    self.detection = detection
    self.couldNotReread = couldNotReread
    self.firstChunkOnly = firstChunkOnly
  }

  /// One line for a summary: no contact values.
  public var description: String {
    var s = "\(values) value\(values == 1 ? "" : "s") of undeclared 8-bit text read as \(name)"
    switch source {
    case .declared: s += " (given)"
    case .detected:
      s += " (detected"
      if let d = detection { s += ", confidence \(d.confidence)" }
      if firstChunkOnly { s += ", from the first chunk" }
      s += ")"
    case .fallback:
      s += " (fallback"
      if let d = detection {
        s += couldNotReread
          ? "; detected \(d.name) at confidence \(d.confidence), but the input cannot be read twice"
          : "; detector's best guess \(d.name) at confidence \(d.confidence) is too unsure"
      }
      s += ")"
    }
    return s
  }
}

/// What a read produced.
public struct ReadResult: Sendable {
  public var table: ContactTable
  /// Every problem of the read, in input order: warnings (a record imported
  /// with a line kept verbatim, a card cut off) and skips (what could not be
  /// a record at all), each with its line, property and reason
  /// (``InputError/severity``).
  public var errors: [InputError]
  public var bytesRead: Int
  /// Records (cards, CSV rows, JSON lines) imported.
  public var recordsRead: Int
  /// CSV rows and JSON lines skipped (each has an entry in ``errors``).
  /// Always 0 for vCard: a card is imported with what can be read, and stray
  /// text between cards has an error but is not a record.
  public var recordsSkipped: Int
  /// How undeclared 8-bit text was decoded (vCard); nil when the input had
  /// none.
  public var undeclaredCharset: UndeclaredCharset?
  /// A read of several inputs (``ContactIO/read(inputs:options:progress:)``):
  /// each input's counts, in order; empty for a read of one.
  public var sources: [SourceSummary] = []
  /// A table's columns (CSV): each one's role and how it was decided,
  /// in the header's order; empty for vCard and NDJSON.
  public var columns: [MappedColumn] = []
  /// A table's delimiter (CSV), nil for vCard and NDJSON.
  public var tableDelimiter: UInt8? = nil
  /// The raw bytes of undeclared values collected for detection.
  var undeclaredText: [UInt8] = []
  var undeclaredValues = 0

  /// Same as ``recordsRead``, in vCard words.
  public var cardsRead: Int { recordsRead }
  public var cardsSkipped: Int { recordsSkipped }

  public init(table: ContactTable, errors: [InputError], bytesRead: Int, recordsRead: Int, recordsSkipped: Int) {
    self.table = table
    self.errors = errors
    self.bytesRead = bytesRead
    self.recordsRead = recordsRead
    self.recordsSkipped = recordsSkipped
  }
}

enum ProcessorInfo {
  /// The worker count (``Workers/count``).
  static var activeCores: Int { Workers.count }
}

#if canImport(Glibc)
  import Glibc
#endif
