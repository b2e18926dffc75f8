import Synchronization

/// Whether a failing stage stops the job (core) or is switched off (optional).
public enum StageRole: String, Sendable, Codable {
  /// Load, normalize, write: a failure stops the run with an error naming the stage.
  case core
  /// Statistics, custom processors: a failure switches the stage off for the
  /// run, is reported, and the run still delivers.
  case optional
}

/// A post processor: frame in, frame out (Ohana's OHContactsPostProcessorProtocol).
///
/// Implementations are single-purpose, `Sendable` values with explicit
/// configuration; they read the frame's columns and return a new frame, never
/// changing the input.
public protocol PostProcessor: Sendable {
  /// The stage name, used by reports and by `disable` (e.g. `required-field(phone)`).
  var name: String { get }
  /// Core or optional; see ``StageRole``.
  var role: StageRole { get }
  func process(_ frame: Frame, context: ProcessingContext) throws -> Frame
}

extension PostProcessor {
  public var role: StageRole { .core }

  /// This processor with another name and/or role.
  public func stage(name: String? = nil, role: StageRole? = nil) -> Stage<Self> {
    Stage(self, name: name, role: role)
  }
}

/// A processor with its name or role overridden.
public struct Stage<Base: PostProcessor>: PostProcessor {
  public let base: Base
  public let name: String
  public let role: StageRole
  public init(_ base: Base, name: String? = nil, role: StageRole? = nil) {
    self.base = base
    self.name = name ?? base.name
    self.role = role ?? base.role
  }
  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    try base.process(frame, context: context)
  }
}

/// Counters and notes a processor reports while it runs (rows it could not
/// handle, values it skipped). Thread-safe.
public final class ProcessingContext: Sendable {
  private let state = Mutex<[String: Int]>([:])
  private let notesState = Mutex<[String]>([])

  public init() {}

  /// Adds `amount` to the counter `name`.
  public func count(_ name: String, _ amount: Int = 1) {
    state.withLock { $0[name, default: 0] += amount }
  }

  /// Records a note (never a contact value: personal data stays out of reports).
  public func note(_ text: String) { notesState.withLock { $0.append(text) } }

  public var counters: [String: Int] { state.withLock { $0 } }
  public var notes: [String] { notesState.withLock { $0 } }

  func take() -> ([String: Int], [String]) {
    let c = state.withLock { s in defer { s = [:] }; return s }
    let n = notesState.withLock { s in defer { s = [] }; return s }
    return (c, n)
  }
}

/// An error a processor throws for a bad configuration or state.
public struct ProcessorError: Error, CustomStringConvertible, Sendable {
  public let stage: String
  public let message: String
  public init(stage: String, message: String) { self.stage = stage; self.message = message }
  public var description: String { "\(stage): \(message)" }
}
