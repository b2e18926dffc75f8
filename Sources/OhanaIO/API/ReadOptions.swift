import OhanaCore

/// How ``ContactIO`` reads.
public struct ReadOptions: Sendable {
  /// Turn the first bad record into a thrown ``ContactIOError`` (code
  /// `.invalidInput`) instead of skipping it.
  public var strict: Bool
  /// Bytes per chunk. Input is read in chunks cut at record boundaries and
  /// chunks are parsed in parallel; a record bigger than a chunk grows it.
  /// Default 2 MiB: at most `workers + 2` chunks are in flight, and against
  /// 4 MiB a 1M-card read peaked 12 MB lower at the same speed (faster in 6
  /// of 10 interleaved runs); 1 MiB saved 7 MB more but was slower.
  public var chunkSize: Int
  /// Parallel parse tasks; defaults to the number of active cores.
  public var workers: Int
  /// Longest unfolded vCard line (or CSV / JSON record) accepted; a longer
  /// one fails its record. Default 8 MiB: room for a ~6 MB base64 photo.
  public var maxLineBytes: Int
  /// Charset used for vCard values that are not valid UTF-8 and carry no
  /// CHARSET parameter we can apply. Default `windows-1252`.
  public var fallbackCharset: String
  /// Name for ``InputError/source`` (a path, `-`); set by the path reader.
  public var sourceName: String?
  /// Called after each chunk is read with (bytes done, total bytes when
  /// known), on the worker thread that read it, one call at a time.
  public var progress: (@Sendable (_ done: Int, _ total: Int?) -> Void)?

  public init(
    strict: Bool = false, chunkSize: Int = 2 << 20, workers: Int? = nil, maxLineBytes: Int = 8 << 20,
    fallbackCharset: String = "windows-1252", sourceName: String? = nil,
    progress: (@Sendable (_ done: Int, _ total: Int?) -> Void)? = nil
  ) {
    self.strict = strict
    self.chunkSize = chunkSize
    self.workers = max(1, workers ?? ProcessorInfo.activeCores)
    self.maxLineBytes = maxLineBytes
    self.fallbackCharset = fallbackCharset
    self.sourceName = sourceName
    self.progress = progress
  }
}

/// What a read produced.
public struct ReadResult: Sendable {
  public var table: ContactTable
  /// Records that were skipped, with their line and reason, in file order.
  public var errors: [InputError]
  public var bytesRead: Int
  /// Records (cards, CSV rows, JSON lines) imported.
  public var recordsRead: Int
  /// Records skipped (each has an entry in ``errors``; stray text between
  /// cards has an error but is not a record).
  public var recordsSkipped: Int

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
  static var activeCores: Int {
    #if canImport(Glibc)
      let n = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
      return n > 0 ? n : 1
    #else
      return 1
    #endif
  }
}

#if canImport(Glibc)
  import Glibc
#endif
