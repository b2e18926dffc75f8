/// What happened to one stage in a run.
public struct StageReport: Sendable, Codable, Equatable {
  public enum Status: String, Sendable, Codable {
    case ran
    /// Turned off by name in the configuration.
    case disabled
    /// An optional stage that threw: switched off for this run.
    case failed
  }
  public var name: String
  public var role: StageRole
  public var status: Status
  public var rowsIn: Int
  public var rowsOut: Int
  public var seconds: Double
  /// The error, for a failed stage.
  public var failure: String?
  /// Counters the stage reported (e.g. `unparsable`).
  public var counters: [String: Int]
  public var notes: [String]
}

/// The report of one pipeline run: one entry per stage, in order.
public struct RunReport: Sendable, Codable, Equatable {
  public var stages: [StageReport] = []
  public var rowsIn: Int = 0
  public var rowsOut: Int = 0
  public var seconds: Double = 0
  public init() {}
  /// The optional stages that failed and were switched off.
  public var failedStages: [String] { stages.filter { $0.status == .failed }.map(\.name) }
}

/// A core stage failed: the run stops.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
  public let stage: String
  public let underlying: String
  public let report: RunReport
  public var description: String { "core stage '\(stage)' failed: \(underlying)" }
}

/// An ordered chain of post processors with Riblets-style stage isolation.
///
/// Each stage runs on the previous stage's frame. A core stage that throws
/// stops the run with a ``PipelineError`` naming it; an optional stage that
/// throws is switched off for the run (its input passes through unchanged)
/// and reported; any stage named in ``disabled`` is skipped.
public struct Pipeline: Sendable {
  public var processors: [any PostProcessor]
  /// Stage names to skip.
  public var disabled: Set<String>

  public init(_ processors: [any PostProcessor], disabled: Set<String> = []) {
    self.processors = processors
    self.disabled = disabled
  }

  /// Runs every stage over `frame`.
  /// - Parameter onStage: called after each stage with its report.
  ///
  /// The frame is consumed: a caller that keeps no copy of it lets each
  /// stage's input be freed as soon as the next stage has its output.
  public func run(
    _ frame: consuming Frame, onStage: (StageReport, Frame) -> Void = { _, _ in }
  ) throws(PipelineError) -> (frame: Frame, report: RunReport) {
    var report = RunReport()
    report.rowsIn = frame.count
    let clock = ContinuousClock()
    let runStart = clock.now
    var current = consume frame
    for p in processors {
      let rowsIn = current.count
      if disabled.contains(p.name) {
        let r = StageReport(
          name: p.name, role: p.role, status: .disabled, rowsIn: rowsIn, rowsOut: rowsIn,
          seconds: 0, failure: nil, counters: [:], notes: [])
        report.stages.append(r)
        onStage(r, current)
        continue
      }
      let context = ProcessingContext()
      let start = clock.now
      do {
        let out = try p.process(current, context: context)
        let (counters, notes) = context.take()
        let r = StageReport(
          name: p.name, role: p.role, status: .ran, rowsIn: rowsIn, rowsOut: out.count,
          seconds: (clock.now - start).seconds, failure: nil, counters: counters, notes: notes)
        report.stages.append(r)
        current = out
        PhaseTrace.mark("stage")
        onStage(r, current)
      } catch {
        let (counters, notes) = context.take()
        let r = StageReport(
          name: p.name, role: p.role, status: .failed, rowsIn: rowsIn, rowsOut: rowsIn,
          seconds: (clock.now - start).seconds, failure: String(describing: error),
          counters: counters, notes: notes)
        report.stages.append(r)
        if p.role == .core {
          report.seconds = (clock.now - runStart).seconds
          throw PipelineError(stage: p.name, underlying: String(describing: error), report: report)
        }
        onStage(r, current)
      }
    }
    report.rowsOut = current.count
    report.seconds = (clock.now - runStart).seconds
    return (current, report)
  }
}

extension Duration {
  /// The duration in seconds.
  public var seconds: Double {
    let (s, atto) = components
    return Double(s) + Double(atto) * 1e-18
  }
}
