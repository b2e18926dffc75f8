import Benchmark
import Ohana

let benchmarks: @Sendable () -> Void = {
  Benchmark("PhoneBenchmarks.placeholder") { benchmark in
    for _ in benchmark.scaledIterations { blackHole(benchmark.scaledIterations.count) }
  }
}
