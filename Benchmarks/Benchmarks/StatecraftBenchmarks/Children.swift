import Benchmark
import CasePathsCore
import Foundation
import IdentifiedCollections
import Statecraft

// B14: children that come and go, as in an app that runs for a day. Each cycle brings one child
// (a presented sheet, a `forEach` row or a pushed stack element), scopes its store as a view
// does, starts a long-running effect in it, and takes it away. The parent lets go of a departed
// child's store, so the last 10,000 cycles of 100,000 cost what the first 10,000 cost, and the
// resident memory does not grow with the cycles.

/// A child with one effect that runs until the child leaves.
struct Visitor: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var ticks = 0
  }

  enum Action: Equatable, Sendable {
    case start
    case tick
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      // NB: runs until the child leaves, which cancels it. (Not a long `Task.sleep`: a cancelled
      // sleep's timer keeps its memory until the deadline, which would measure the runtime's
      // timers instead of the store.)
      return .run { _ in
        let forever = AsyncStream<Never>(Never.self) { _ in }
        for await _ in forever {}
      }
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

/// A parent that presents, lists and pushes visitors.
struct Household: Reducer {
  struct State: Equatable, Sendable {
    @Presents var sheet: Visitor.State?
    var rows: IdentifiedArrayOf<Visitor.State> = []
    var path = StackState<Visitor.State>()
  }

  enum Action: Sendable {
    case sheet(PresentationAction<Visitor.Action>)
    case rows(IdentifiedActionOf<Visitor>)
    case path(StackAction<Visitor.State, Visitor.Action>)
    case present(Int)
    case dismiss
    case add(Int)
    case remove(Int)
    case push(Int)
    case pop
  }

  static let sheetCase = AnyCasePath<Action, PresentationAction<Visitor.Action>>(
    embed: Action.sheet, extract: { if case .sheet(let action) = $0 { action } else { nil } })
  static let rowsCase = AnyCasePath<Action, IdentifiedActionOf<Visitor>>(
    embed: Action.rows, extract: { if case .rows(let action) = $0 { action } else { nil } })
  static let pathCase = AnyCasePath<Action, StackAction<Visitor.State, Visitor.Action>>(
    embed: Action.path, extract: { if case .path(let action) = $0 { action } else { nil } })

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .present(let id):
        state.sheet = Visitor.State(id: id)
      case .dismiss:
        state.sheet = nil
      case .add(let id):
        state.rows.append(Visitor.State(id: id))
      case .remove(let id):
        state.rows.remove(id: id)
      case .push(let id):
        state.path.append(Visitor.State(id: id))
      case .pop:
        state.path.removeLast()
      case .sheet, .rows, .path:
        break
      }
      return .none
    }
    .ifLet(\.$sheet, action: Self.sheetCase) { Visitor() }
    .forEach(\.rows, action: Self.rowsCase) { Visitor() }
    .forEach(\.path, action: Self.pathCase) { Visitor() }
  }
}

/// The kinds of child that B14 brings and takes away.
enum Departure: String, CaseIterable, Sendable {
  case presentDismiss = "present/dismiss"
  case addRemove = "add/remove"
  case pushPop = "push/pop"

  /// One cycle: the child `id` arrives, its store is scoped as a view scopes it, it starts its
  /// effect, and it leaves (which cancels the effect). Returns whether the child's store read the child.
  @MainActor
  func cycle(_ store: StoreOf<Household>, id: Int) -> Bool {
    let child: Store<Visitor.State, Visitor.Action>?
    switch self {
    case .presentDismiss:
      store.send(.present(id))
      child = store.scope(state: \.$sheet, action: Household.sheetCase)
    case .addRemove:
      store.send(.add(id))
      child = store.scope(state: \.rows, id: id, action: Household.Action.rows)
    case .pushPop:
      store.send(.push(id))
      child = store.path.ids.last.flatMap {
        store.scope(state: \.path, id: $0, action: Household.pathCase)
      }
    }
    let readsTheChild = child?.id == id
    child?.send(.start)
    switch self {
    case .presentDismiss: store.send(.dismiss)
    case .addRemove: store.send(.remove(id))
    case .pushPop: store.send(.pop)
    }
    return readsTheChild
  }
}

extension Size {
  /// The cycles of B14 before the measured ones, and the measured ones.
  static let departuresBefore = isSmokeRun ? 2_000 : 90_000
  static let departures = isSmokeRun ? 1_000 : 10_000
}

/// The resident size of this process, in kB.
func residentSize() -> Int { processStatus("VmRSS") }

/// B14: measures `Size.departures` cycles of `kind` after `before` unmeasured cycles on the same
/// store, and reports how much the resident size grew from the first 1,000 cycles to the end.
@MainActor
func b14Store(_ kind: Departure, before: Int, _ handle: BenchmarkHandle) async {
  let store = Store(initialState: Household.State()) { Household() }
  var misses = 0
  var residentAfterWarmUp = residentSize()
  for id in 0..<before {
    if !kind.cycle(store, id: id) { misses += 1 }
    // NB: as an app returns to its run loop after each event: the cancelled effects end then.
    await Task.yield()
    if id == 999 { residentAfterWarmUp = residentSize() }
  }
  handle.benchmark.startMeasurement()
  for id in before..<(before + Size.departures) {
    if !kind.cycle(store, id: id) { misses += 1 }
    await Task.yield()
  }
  handle.benchmark.stopMeasurement()
  handle.check(misses == 0, "B14 \(kind.rawValue): \(misses) child stores did not read their child")
  handle.check(
    store.sheet == nil && store.rows.isEmpty && store.path.isEmpty,
    "B14 \(kind.rawValue): a child is still in the state")
  if before > 0 {
    handle.benchmark.measurement(
      .custom("resident growth (kB)", useScalingFactor: false),
      residentSize() - residentAfterWarmUp)
  }
}
