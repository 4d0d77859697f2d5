import Benchmark
import Foundation
import Observation
import Statecraft

// The scenarios of BENCHMARKS.md. Each runs on the main actor (stores are main-actor isolated),
// builds its fixture outside the measured region, and checks its result, so that a scenario that
// stopped doing its work fails instead of getting fast.

/// Lets the (non-`Sendable`) benchmark handle cross into a main-actor function; it is used only
/// from there while the runner waits.
struct BenchmarkHandle: @unchecked Sendable {
  let benchmark: Benchmark

  func measure<T>(_ body: () throws -> T) rethrows -> T {
    benchmark.startMeasurement()
    defer { benchmark.stopMeasurement() }
    return try body()
  }

  func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { benchmark.error(message()) }
  }
}

enum Size {
  static let sends = 100_000
  static let rows = 10_000
  static let toggles = 10_000
  static let roundTrips = 10_000
  static let observedRows = 1_000
  static let observerSends = 1_000
  static let allocationSends = 1_000
  static let busyRows = 1_000
  static let busySends = 1_000
  static let reReadRows = 1_000
  static let reReadSends = 1_000
}

// MARK: - B1: synchronous sends

@MainActor
func b1Store(_ handle: BenchmarkHandle) {
  let store = Store(initialState: Counter.State(), reducer: Counter())
  handle.measure {
    for _ in 0..<Size.sends { store.send(.increment) }
  }
  handle.check(store.count == Size.sends, "B1: count is \(store.count)")
}

@MainActor
func b1Floor(_ handle: BenchmarkHandle) {
  let floor = DirectStore(initialState: Counter.State(), reducer: Counter())
  handle.measure {
    for _ in 0..<Size.sends { floor.send(.increment) }
  }
  handle.check(floor.state.count == Size.sends, "B1 floor: count is \(floor.state.count)")
}

// MARK: - B2: toggling one row of 10,000

@MainActor
func b2Store(_ handle: BenchmarkHandle) {
  let store = Store(initialState: Rows.State(count: Size.rows)) { Rows() }
  let id = Size.rows / 2
  handle.measure {
    for _ in 0..<Size.toggles { store.send(Rows.toggle(id)) }
  }
  handle.check(store.state.rows[id: id]?.isOn == false, "B2: row \(id) has the wrong value")
}

@MainActor
func b2Floor(_ handle: BenchmarkHandle) {
  let floor = DirectRows(count: Size.rows)
  let id = Size.rows / 2
  handle.measure {
    for _ in 0..<Size.toggles { floor.toggle(id) }
  }
  handle.check(floor.state.rows[id: id]?.isOn == false, "B2 floor: row \(id) has the wrong value")
}

/// Not a target: the `Rows` reducer called directly, to tell the reducer's work (`forEach`, the
/// `body` built for each action) from the store's.
@MainActor
func b2ReducerFloor(_ handle: BenchmarkHandle) {
  let floor = DirectStore(initialState: Rows.State(count: Size.rows), reducer: Rows())
  let id = Size.rows / 2
  handle.measure {
    for _ in 0..<Size.toggles { floor.send(Rows.toggle(id)) }
  }
  handle.check(floor.state.rows[id: id]?.isOn == false, "B2 reducer: row \(id) has the wrong value")
}

// MARK: - B3: effect round trips

@MainActor
func b3Store(_ handle: BenchmarkHandle) async {
  let store = Store(initialState: Counter.State(), reducer: Counter())
  handle.benchmark.startMeasurement()
  for _ in 0..<Size.roundTrips { await store.send(.roundTrip).finish() }
  handle.benchmark.stopMeasurement()
  handle.check(store.count == Size.roundTrips, "B3: count is \(store.count)")
}

@MainActor
func b3Floor(_ handle: BenchmarkHandle) async {
  let floor = RoundTripFloor()
  handle.benchmark.startMeasurement()
  for _ in 0..<Size.roundTrips { await floor.roundTrip() }
  handle.benchmark.stopMeasurement()
  handle.check(floor.state.count == Size.roundTrips, "B3 floor: count is \(floor.state.count)")
}

/// The bare task round trip: a task that sends its action back to the main actor, awaited.
@MainActor
func b3TaskFloor(_ handle: BenchmarkHandle) async {
  let floor = RoundTripFloor()
  handle.benchmark.startMeasurement()
  for _ in 0..<Size.roundTrips { await floor.taskRoundTrip() }
  handle.benchmark.stopMeasurement()
  handle.check(floor.state.count == Size.roundTrips, "B3 task floor: count is \(floor.state.count)")
}

// MARK: - B4: sends through nested scopes

@MainActor
func b4Store<Root: NestedCounter>(_: Root.Type, _ handle: BenchmarkHandle) {
  let root = Store(initialState: Root.initialState(), reducer: Root.make())
  let store = Root.counterStore(in: root)
  handle.measure {
    for _ in 0..<Size.sends { store.send(.increment) }
  }
  handle.check(store.count == Size.sends, "B4: count is \(store.count)")
}

/// The same sends as `b4Store`, made to the root store (with the counter's action embedded in
/// the root's) instead of the leaf.
@MainActor
func b4Root<Root: NestedCounter>(_: Root.Type, _ handle: BenchmarkHandle) {
  let root = Store(initialState: Root.initialState(), reducer: Root.make())
  let store = Root.counterStore(in: root)
  handle.measure {
    for _ in 0..<Size.sends { root.send(Root.embed(.increment)) }
  }
  handle.check(store.count == Size.sends, "B4 root: count is \(store.count)")
}

@MainActor
func b4Floor<Root: NestedCounter>(_: Root.Type, _ handle: BenchmarkHandle) {
  let floor = DirectStore(initialState: Root.initialState(), reducer: Root.make())
  handle.benchmark.startMeasurement()
  for _ in 0..<Size.sends { floor.send(Root.embed(.increment)) }
  handle.benchmark.stopMeasurement()
}

// MARK: - B5: observer fan-out

/// Counts the observers notified, and which one was last.
final class Notifications: @unchecked Sendable {
  var count = 0
  var last = -1
}

@MainActor
func b5Store(observers: Int, _ handle: BenchmarkHandle) {
  let store = Store(initialState: Rows.State(count: Size.observedRows)) { Rows() }
  let stride = Size.observedRows / observers
  let ids = (0..<observers).map { $0 * stride }
  let rowStores = ids.map { id in
    store.scope(state: \.rows, id: id, action: Rows.Action.rows)!
  }
  let notifications = Notifications()
  func track(_ index: Int) {
    withObservationTracking {
      _ = rowStores[index].isOn
    } onChange: {
      notifications.count += 1
      notifications.last = index
    }
  }
  for index in rowStores.indices { track(index) }

  var wrong = 0
  handle.measure {
    for send in 0..<Size.observerSends {
      let index = send % observers
      notifications.count = 0
      store.send(Rows.toggle(ids[index]))
      if notifications.count != 1 || notifications.last != index { wrong += 1 }
      track(index)
    }
  }
  handle.check(wrong == 0, "B5: \(wrong) sends did not notify exactly their row's observer")
  handle.benchmark.measurement(
    .custom("sends that notified exactly 1 observer (%)", polarity: .prefersLarger),
    (Size.observerSends - wrong) * 100 / Size.observerSends)
}

// MARK: - B6: the counter as a Reactor and as a Feedback system

@MainActor
func b6Reactor(_ handle: BenchmarkHandle) {
  let store = Store(initialState: Counter.State(), reactor: CounterReactor())
  handle.measure {
    for _ in 0..<Size.sends { store.send(.increment) }
  }
  handle.check(store.count == Size.sends, "B6 reactor: count is \(store.count)")
}

@MainActor
func b6Feedback(_ handle: BenchmarkHandle) async {
  let store = Store(initialState: Counter.State(), system: CounterSystem())
  let running = Task { await store.run() }
  await Task.yield()  // lets `run()` start the system, so that events are reduced at once
  handle.measure {
    for _ in 0..<Size.sends { store.send(.increment) }
  }
  running.cancel()
  handle.check(store.count == Size.sends, "B6 feedback: count is \(store.count)")
}

// MARK: - B7: memory with an unread `states` stream

/// A field of /proc/self/status, in kB (0 where there is no /proc).
func processStatus(_ field: String) -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
    return Int(line.dropFirst(field.count + 1).filter(\.isNumber)) ?? 0
  }
  return 0
}

/// Resets the peak resident set size (VmHWM) to the current one (Linux 4.0 and later).
func resetPeakResidentSize() -> Bool {
  (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
}

@MainActor
func b7Store(_ handle: BenchmarkHandle) {
  let store = Store(initialState: Counter.State(), reducer: Counter())
  let states = store.states  // never read
  let canResetPeak = resetPeakResidentSize()
  let peakBefore = processStatus("VmHWM")
  handle.measure {
    for _ in 0..<Size.sends { store.send(.increment) }
  }
  let peakAfter = processStatus("VmHWM")
  handle.check(canResetPeak, "B7: could not reset the peak resident size")
  handle.check(store.count == Size.sends, "B7: count is \(store.count)")
  handle.benchmark.measurement(
    .custom("peak resident growth (kB)", useScalingFactor: false), peakAfter - peakBefore)
  withExtendedLifetime(states) {}
}

// MARK: - B8: allocations per `.none` send

@MainActor
func b8Store(_ handle: BenchmarkHandle) {
  let store = Store(initialState: Counter.State(), reducer: Counter())
  store.send(.increment)  // the first send may size the store's queue
  handle.measure {
    for _ in 0..<Size.allocationSends { store.send(.increment) }
  }
  handle.check(store.count == Size.allocationSends + 1, "B8: count is \(store.count)")
}

/// B8's sends through a `Scope` built in a `body` (so once per action).
@MainActor
func b8BodyScope(_ handle: BenchmarkHandle) {
  let store = Store(initialState: CounterHost.State(), reducer: CounterHost())
  store.send(.counter(.increment))  // the first send may size the store's queue
  handle.measure {
    for _ in 0..<Size.allocationSends { store.send(.counter(.increment)) }
  }
  let count = store.state.counter.count
  handle.check(count == Size.allocationSends + 1, "B8 body scope: count is \(count)")
}

// MARK: - B9: a send whose observer re-reads its field

/// 1,000 sends, each toggling one row of 1,000; with `observed`, each row has a row store whose
/// `observe` closure re-reads the row's field (what a view does when it re-renders).
@MainActor
func b9Store(observed: Bool, _ handle: BenchmarkHandle) {
  let store = Store(initialState: Rows.State(count: Size.reReadRows)) { Rows() }
  let renders = Notifications()
  var tokens: [ObserveToken] = []
  if observed {
    for id in 0..<Size.reReadRows {
      let rowStore = store.scope(state: \.rows, id: id, action: Rows.Action.rows)!
      tokens.append(
        rowStore.observe { row in
          _ = row.isOn
          renders.count += 1
        })
    }
  }
  renders.count = 0
  handle.measure {
    for send in 0..<Size.reReadSends {
      store.send(Rows.toggle(send % Size.reReadRows))
    }
  }
  let expected = observed ? Size.reReadSends : 0
  handle.check(renders.count == expected, "B9: \(renders.count) re-renders, not \(expected)")
  withExtendedLifetime(tokens) {}
}

// MARK: - B10: sends with an unread `states` stream

@MainActor
func b10Store(stream: Bool, _ handle: BenchmarkHandle) {
  let store = Store(initialState: Counter.State(), reducer: Counter())
  let states = stream ? store.states : nil  // never read
  handle.measure {
    for _ in 0..<Size.sends { store.send(.increment) }
  }
  handle.check(store.count == Size.sends, "B10: count is \(store.count)")
  withExtendedLifetime(states) {}
}

// MARK: - B11: a send to one row while every row runs an effect

/// 1,000 sends, each toggling one row of 1,000, with an effect running in the first `busy` rows.
@MainActor
func b11Store(busy: Int, _ handle: BenchmarkHandle) {
  let store = Store(initialState: BusyRows.State(count: Size.busyRows)) { BusyRows() }
  for id in 0..<busy { store.send(BusyRows.send(.start, to: id)) }
  handle.measure {
    for send in 0..<Size.busySends {
      store.send(BusyRows.send(.toggle, to: send % Size.busyRows))
    }
  }
  let on = store.state.rows.count(where: \.isOn)
  handle.check(on == min(Size.busySends, Size.busyRows), "B11: \(on) rows are on")
}
