import Testing
@testable import OhanaCore
import _OhanaTestSupport

struct Boom: Error {}
struct KeepFirst: PostProcessor {
  var name: String { "keep-first" }
  func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    context.count("seen", frame.count)
    return frame.narrowed(to: Bitmap(count: frame.table.rowCount, setting: [0]))
  }
}
struct Failing: PostProcessor {
  let name: String
  let role: StageRole
  func process(_ frame: Frame, context: ProcessingContext) throws -> Frame { throw Boom() }
}

@Suite struct PipelineTests {
  let table = ContactTable(contacts: RandomContacts.make(count: 10, seed: 1))

  @Test func optionalFailureIsSwitchedOffAndReported() throws {
    let p = Pipeline([Failing(name: "custom", role: .optional), KeepFirst()])
    let (frame, report) = try p.run(Frame(table: table))
    #expect(frame.count == 1)
    #expect(report.stages.map(\.status) == [.failed, .ran])
    #expect(report.failedStages == ["custom"])
    #expect(report.stages[0].failure?.contains("Boom") == true)
    #expect(report.stages[1].counters["seen"] == 10)
    #expect(report.stages[1].rowsIn == 10 && report.stages[1].rowsOut == 1)
  }

  @Test func coreFailureStopsTheRunNamingTheStage() {
    let p = Pipeline([KeepFirst(), Failing(name: "normalize", role: .core)])
    #expect {
      _ = try p.run(Frame(table: table))
    } throws: { error in
      guard let e = error as? PipelineError else { return false }
      return e.stage == "normalize" && e.report.stages.count == 2 && e.description.contains("normalize")
    }
  }

  @Test func disabledStagesAreSkippedByName() throws {
    let p = Pipeline([KeepFirst(), Failing(name: "normalize", role: .core)], disabled: ["normalize", "keep-first"])
    let (frame, report) = try p.run(Frame(table: table))
    #expect(frame.count == 10)
    #expect(report.stages.map(\.status) == [.disabled, .disabled])
  }

  @Test func stageOverridesNameAndRole() throws {
    let p = Pipeline([Failing(name: "x", role: .core).stage(name: "renamed", role: .optional)])
    let (_, report) = try p.run(Frame(table: table))
    #expect(report.stages.first?.name == "renamed")
    #expect(report.stages.first?.status == .failed)
  }
}

final class Owner {}

@Suite struct SignalTests {
  @Test func observersAddRemoveAndWeakOwners() {
    let s = Signal<Int>()
    let box = Mutex2()
    let t = s.addObserver { box.add("a\($0)") }
    var owner: Owner? = Owner()
    s.addObserver(owner) { box.add("b\($0)") }
    s.fire(1)
    s.removeObserver(t)
    s.fire(2)
    owner = nil
    s.fire(3)
    #expect(box.values == ["a1", "b1", "b2"])
    #expect(s.observerCount == 0)
    _ = owner
  }

  @Test func asyncStreamReceivesValues() async {
    let s = Signal<String>()
    let stream = s.values
    s.fire("x")
    s.fire("y")
    s.finish()
    var got: [String] = []
    for await v in stream { got.append(v) }
    #expect(got == ["x", "y"])
  }
}

import Synchronization
final class Mutex2: Sendable {
  let m = Mutex<[String]>([])
  func add(_ s: String) { m.withLock { $0.append(s) } }
  var values: [String] { m.withLock { $0 } }
}
