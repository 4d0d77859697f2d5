import Benchmark
import Statecraft
import StatecraftExploration

// MARK: - X1: exploration steps per second (issue 28)

enum Exploration {
  static let sessions = 200
  /// The steps the 200 sessions of seed 1 run (user actions and moves of the world): fixed by
  /// the seed, so that steps per second is this over the wall clock.
  static let steps = 2_103
  static let options = ExplorationOptions(seed: 1, sessions: sessions, maxActions: 10)
  static let actions = ActionGenerator<Counter.Action>.weighted([
    (3, .constant(.increment)),
    (1, .constant(.roundTrip)),
  ])
}

/// Explores the counter: 200 seeded sessions, each on a store of its own, checked after every
/// step.
@MainActor
func x1Exploration(_ handle: BenchmarkHandle) async {
  handle.benchmark.startMeasurement()
  let report = await explore(
    initialState: Counter.State(),
    reducer: { Counter() },
    actions: Exploration.actions,
    options: Exploration.options
  ) { state in
    try invariant(state.count >= 0, "the count is never negative")
  }
  handle.benchmark.stopMeasurement()
  handle.check(
    report.failure == nil, "X1: exploration failed: \(String(describing: report.failure))")
  handle.check(report.sessions == Exploration.sessions, "X1: ran \(report.sessions) sessions")
  handle.check(report.steps == Exploration.steps, "X1: ran \(report.steps) steps")
}

/// The floor: the same user actions sent to a store per session, by hand, with the effects
/// awaited: what the sessions cost without exploration's choices and checks.
@MainActor
func x1Floor(_ handle: BenchmarkHandle) async {
  var random = SeededRandom(seed: 1)
  let plans = (0..<Exploration.sessions).map { _ in
    (0..<(1 + random.next(below: 10))).map { _ in
      random.chance(3, in: 4) ? Counter.Action.increment : .roundTrip
    }
  }
  var total = 0
  handle.benchmark.startMeasurement()
  for plan in plans {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    for action in plan { await store.send(action).finish() }
    total += store.count
  }
  handle.benchmark.stopMeasurement()
  handle.check(total > 0, "X1 floor: nothing was counted")
}
