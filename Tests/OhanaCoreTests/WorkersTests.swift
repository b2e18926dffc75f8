import Foundation
import Testing

@testable import OhanaCore

/// The one decision of how many workers (``Workers``): the cgroup quota
/// texts as the kernel writes them (written out here by hand), and the
/// affinity mask against coreutils' `nproc`, which reads the same mask by
/// its own code.
@Suite struct WorkersTests {
  @Test func cgroupV2CPUMax() {
    #expect(Workers.quota(cpuMax: "max 100000\n") == nil)
    #expect(Workers.quota(cpuMax: "150000 100000\n") == 2)  // 1.5 CPUs, rounded up
    #expect(Workers.quota(cpuMax: "50000 100000") == 1)
    #expect(Workers.quota(cpuMax: "400000 100000") == 4)
    #expect(Workers.quota(cpuMax: "") == nil)
    #expect(Workers.quota(cpuMax: "garbage") == nil)
    #expect(Workers.quota(cpuMax: "0 100000") == nil)
  }

  @Test func cgroupV1CFSQuota() {
    #expect(Workers.quota(cfsQuota: "-1\n", period: "100000\n") == nil)
    #expect(Workers.quota(cfsQuota: "250000", period: "100000") == 3)
    #expect(Workers.quota(cfsQuota: "100000", period: "100000") == 1)
    #expect(Workers.quota(cfsQuota: "x", period: "100000") == nil)
  }

  @Test func threadCountsAsAUserWritesThem() {
    #expect(Workers.parse("3") == 3)
    #expect(Workers.parse(" 7\n") == 7)
    #expect(Workers.parse("0") == nil)
    #expect(Workers.parse("-2") == nil)
    #expect(Workers.parse("two") == nil)
    #expect(Workers.parse("") == nil)
  }

  @Test func affinityIsWhatNprocSees() throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/nproc")
    let pipe = Pipe()
    p.standardOutput = pipe
    p.environment = [:]  // nproc honours OMP_NUM_THREADS; leave it out
    try p.run()
    p.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let nproc = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(Workers.affinity() == nproc)
    #expect(Workers.available() >= 1)
    #expect(Workers.available() <= nproc)
  }
}
