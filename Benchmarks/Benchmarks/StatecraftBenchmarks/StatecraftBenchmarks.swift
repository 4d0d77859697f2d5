import Benchmark
import Foundation

/// `STATECRAFT_BENCHMARK_SMOKE=1`: one iteration of each scenario, no warm-up (for CI).
let isSmokeRun = ProcessInfo.processInfo.environment["STATECRAFT_BENCHMARK_SMOKE"] != nil

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
    timeUnits: .microseconds,
    warmupIterations: isSmokeRun ? 0 : 3,
    maxDuration: .seconds(isSmokeRun ? 1 : 3),
    maxIterations: isSmokeRun ? 1 : 40
  )

  // B1: 100,000 synchronous sends of an action whose effect is `.none`.
  Benchmark("B1 store") { await b1Store(BenchmarkHandle(benchmark: $0)) }
  Benchmark("B1 floor") { await b1Floor(BenchmarkHandle(benchmark: $0)) }

  // B2: 10,000 toggles of one row in a 10,000-row IdentifiedArray.
  let b2Metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .mallocBytesCount]
  Benchmark("B2 store", configuration: .init(metrics: b2Metrics)) {
    await b2Store(BenchmarkHandle(benchmark: $0))
  }
  Benchmark("B2 floor", configuration: .init(metrics: b2Metrics)) {
    await b2Floor(BenchmarkHandle(benchmark: $0))
  }
  Benchmark("B2 reducer floor", configuration: .init(metrics: b2Metrics)) {
    await b2ReducerFloor(BenchmarkHandle(benchmark: $0))
  }

  // B3: 10,000 effect round trips, each awaited.
  Benchmark("B3 store") { await b3Store(BenchmarkHandle(benchmark: $0)) }
  Benchmark("B3 floor") { await b3Floor(BenchmarkHandle(benchmark: $0)) }
  Benchmark("B3 task floor") { await b3TaskFloor(BenchmarkHandle(benchmark: $0)) }

  // B4: 100,000 sends through a child store scoped 1, 5 and 10 levels deep, and to the root of
  // the depth 10 tree (the flat send is B1 store).
  Benchmark("B4 depth 1 store") { await b4Store(Depth1.self, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B4 depth 1 floor") { await b4Floor(Depth1.self, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B4 depth 5 store") { await b4Store(Depth5.self, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B4 depth 5 floor") { await b4Floor(Depth5.self, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B4 depth 10 store") { await b4Store(Depth10.self, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B4 depth 10 floor") { await b4Floor(Depth10.self, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B4 depth 10 root") { await b4Root(Depth10.self, BenchmarkHandle(benchmark: $0)) }
  // W4 (issue 26): the floor of B4 depth 5 and 10 written by hand, a field access and an
  // `if case` per level, without `Reducer` or `Scope`.
  Benchmark("W4 depth 5 hand floor") { await w4HandFloor5(BenchmarkHandle(benchmark: $0)) }
  Benchmark("W4 depth 10 hand floor") { await w4HandFloor10(BenchmarkHandle(benchmark: $0)) }

  // B5: 1,000 sends, each toggling one observed row, with 10 and with 1,000 observed row stores.
  let b5Metrics: [BenchmarkMetric] = [
    .wallClock, .cpuTotal, .mallocCountTotal,
    .custom("sends that notified exactly 1 observer (%)", polarity: .prefersLarger),
  ]
  Benchmark("B5 10 observers", configuration: .init(metrics: b5Metrics)) {
    await b5Store(observers: 10, BenchmarkHandle(benchmark: $0))
  }
  Benchmark("B5 1000 observers", configuration: .init(metrics: b5Metrics)) {
    await b5Store(observers: 1_000, BenchmarkHandle(benchmark: $0))
  }

  // B6: B1's 100,000 sends, with the counter as a Reactor and as a Feedback system.
  Benchmark("B6 reactor") { await b6Reactor(BenchmarkHandle(benchmark: $0)) }
  Benchmark("B6 feedback") { await b6Feedback(BenchmarkHandle(benchmark: $0)) }

  // B7: 100,000 sends while a `store.states` stream is never read.
  Benchmark(
    "B7 unread states",
    configuration: .init(
      metrics: [
        .wallClock, .mallocCountTotal, .memoryLeakedBytes,
        .custom("peak resident growth (kB)", useScalingFactor: false),
      ]
    )
  ) { await b7Store(BenchmarkHandle(benchmark: $0)) }

  // B8: allocations of 1,000 `.none` sends.
  Benchmark(
    "B8 none send allocations",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount])
  ) { await b8Store(BenchmarkHandle(benchmark: $0)) }
  // The same through a `Scope` built in a `body`, once per action (the usual spelling).
  Benchmark(
    "B8 body scope allocations",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount])
  ) { await b8BodyScope(BenchmarkHandle(benchmark: $0)) }

  // B9: 1,000 sends, each toggling one row of 1,000, with an `observe` closure on every row store
  // that re-reads the row's field, and without observers.
  Benchmark("B9 observed rows") { await b9Store(observed: true, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B9 unobserved rows") {
    await b9Store(observed: false, BenchmarkHandle(benchmark: $0))
  }

  // B10: 100,000 sends with an unread `store.states` stream, and without one.
  Benchmark("B10 unread states") { await b10Store(stream: true, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B10 no stream") { await b10Store(stream: false, BenchmarkHandle(benchmark: $0)) }

  // B11: 1,000 sends, each toggling one row of 1,000, with an effect running in every row, in 10
  // rows and in none.
  Benchmark("B11 1000 busy rows") { await b11Store(busy: 1_000, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B11 10 busy rows") { await b11Store(busy: 10, BenchmarkHandle(benchmark: $0)) }
  Benchmark("B11 idle rows") { await b11Store(busy: 0, BenchmarkHandle(benchmark: $0)) }

  // B12: 100,000 reads of a field of a shared value through a store, of a plain field through a
  // store, and of a plain field held by a class (the floor).
  Benchmark("B12 shared field") { await b12Shared(BenchmarkHandle(benchmark: $0)) }
  Benchmark("B12 plain field") { await b12Plain(BenchmarkHandle(benchmark: $0)) }
  Benchmark("B12 floor") { await b12Floor(BenchmarkHandle(benchmark: $0)) }

  // B13: B1's 100,000 sends with an inspector attached and no page connected, and without one.
  Benchmark("B13 inspector, no page") {
    await b13Store(inspected: true, BenchmarkHandle(benchmark: $0))
  }
  Benchmark("B13 no inspector") { await b13Store(inspected: false, BenchmarkHandle(benchmark: $0)) }

  // X1: exploration (issue 28): 200 seeded sessions of a counter, checked after every step, and
  // the same user actions sent to a store per session by hand.
  Benchmark("X1 exploration") { await x1Exploration(BenchmarkHandle(benchmark: $0)) }
  Benchmark("X1 floor") { await x1Floor(BenchmarkHandle(benchmark: $0)) }

  // B14: 10,000 cycles of a child arriving, starting an effect and leaving (presented and
  // dismissed, added and removed as a row, pushed and popped), on a new store and after 90,000
  // cycles on the same store; and how much the resident size grew over the 100,000.
  let b14Configuration = Benchmark.Configuration(
    metrics: [
      .wallClock, .cpuTotal, .mallocCountTotal,
      .custom("resident growth (kB)", useScalingFactor: false),
    ],
    warmupIterations: 0,
    maxDuration: .seconds(isSmokeRun ? 1 : 20),
    maxIterations: isSmokeRun ? 1 : 5
  )
  for kind in Departure.allCases {
    Benchmark("B14 \(kind.rawValue) first", configuration: b14Configuration) {
      await b14Store(kind, before: 0, BenchmarkHandle(benchmark: $0))
    }
    Benchmark("B14 \(kind.rawValue) last", configuration: b14Configuration) {
      await b14Store(kind, before: Size.departuresBefore, BenchmarkHandle(benchmark: $0))
    }
  }

  // R1 (issue 26): 1,000,000 reads of `store.count` outside observation tracking, inside it
  // (1,000 reads per `withObservationTracking`), the same reads of an `Observable` class inside
  // it, and the floor (a struct field read through a final class).
  Benchmark("R1 store") { await r1Store(BenchmarkHandle(benchmark: $0)) }
  Benchmark("R1 tracked") { await r1Tracked(BenchmarkHandle(benchmark: $0)) }
  Benchmark("R1 tracked floor") { await r1TrackedFloor(BenchmarkHandle(benchmark: $0)) }
  Benchmark("R1 floor") { await r1Floor(BenchmarkHandle(benchmark: $0)) }

  // R2: 100,000 reads of a row store's field, and the floor.
  Benchmark("R2 store") { await r2Store(BenchmarkHandle(benchmark: $0)) }
  Benchmark("R2 floor") { await r2Floor(BenchmarkHandle(benchmark: $0)) }

  // R3: a list's first render: 1,000 row stores made and read once under tracking, and the
  // first tracked read of 1,000 `Observable` rows.
  Benchmark("R3 store") { await r3Store(BenchmarkHandle(benchmark: $0)) }
  Benchmark("R3 Observable floor") { await r3Floor(BenchmarkHandle(benchmark: $0)) }

  // W5: 1,000 sends, each toggling one row of 1,000 whose row store a view observes (and
  // re-reads after the change), and the same sends with no row stores.
  Benchmark("W5 observed send") { await w5Store(observed: true, BenchmarkHandle(benchmark: $0)) }
  Benchmark("W5 plain send") { await w5Store(observed: false, BenchmarkHandle(benchmark: $0)) }
  Benchmark("W5 Observable floor") { await w5ObservableFloor(BenchmarkHandle(benchmark: $0)) }
}
