import Benchmark
import Ohana

let benchmarks: @Sendable () -> Void = {
  Benchmark("CoreBenchmarks.placeholder") { benchmark in
    for _ in benchmark.scaledIterations { blackHole(benchmark.scaledIterations.count) }
  }
}
