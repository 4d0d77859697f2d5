import Statecraft

// The floors: the same work done by hand. A class holds the state and calls the reducer directly
// on it (`inout`); effects are bare tasks. Each scenario is measured against its floor in the
// same run.

/// A class holding a feature's state and calling its reducer directly.
///
/// `send` is not inlined into the benchmark loop, so the optimizer cannot fold 100,000 sends into
/// one addition: the floor pays one call per action, as a hand-written controller would.
final class DirectStore<R: Reducer> {
  var state: R.State
  let reducer: R

  init(initialState: R.State, reducer: R) {
    self.state = initialState
    self.reducer = reducer
  }

  @inline(never)
  func send(_ action: R.Action) {
    let effect = reducer.reduce(into: &state, action: action)
    precondition(effect.isNone, "The floor runs only actions whose effect is .none")
  }
}

/// The B2 floor: looks the row up by id and toggles it in place.
final class DirectRows {
  var state: Rows.State

  init(count: Int) {
    state = Rows.State(count: count)
  }

  @inline(never)
  func toggle(_ id: Int) {
    guard let index = state.rows.index(id: id) else { return }
    state.rows[index].isOn.toggle()
  }
}

/// The B3 floor: the effect is a bare task that hops back to the main actor with its action.
@MainActor
final class RoundTripFloor {
  var state = Counter.State()
  let reducer = Counter()

  func roundTrip() async {
    let task = Task.detached { await self.receive(.roundTripDone) }
    await task.value
  }

  /// The bare task round trip of a `.run` effect: a task started from the main actor whose
  /// (nonisolated) operation sends its action back to the main actor, awaited.
  func taskRoundTrip() async {
    let task = Task { await Self.operation(self) }
    await task.value
  }

  /// What `.run { send in await send(.roundTripDone) }` does, by hand.
  nonisolated private static func operation(_ floor: RoundTripFloor) async {
    await floor.receive(.roundTripDone)
  }

  private func receive(_ action: Counter.Action) {
    _ = reducer.reduce(into: &state, action: action)
  }
}

// MARK: - W4: nesting delegated by hand

/// A feature whose reducer is written by hand, without `Reducer` or `Scope`: the W4 floor.
protocol HandReducer {
  associatedtype State
  associatedtype Action
  static func reduce(into state: inout State, action: Action)
}

/// The counter at the bottom of a hand-written nesting.
enum HandCounter: HandReducer {
  static func reduce(into state: inout Counter.State, action: Counter.Action) {
    if case .increment = action { state.count += 1 }
  }
}

/// One level of nesting delegated by hand: a field access and an `if case`, as `Wrap` does
/// through a `Scope`.
enum HandWrap<Child: HandReducer>: HandReducer {
  struct State {
    var child: Child.State
  }

  enum Action {
    case child(Child.Action)
    case reset
  }

  static func reduce(into state: inout State, action: Action) {
    if case .child(let childAction) = action {
      Child.reduce(into: &state.child, action: childAction)
    }
  }
}

/// Holds a hand-written nesting's state and sends it actions, one call each.
final class HandStore<R: HandReducer> {
  var state: R.State

  init(initialState: R.State) {
    state = initialState
  }

  @inline(never)
  func send(_ action: R.Action) {
    R.reduce(into: &state, action: action)
  }
}

typealias HandDepth5 = HandWrap<HandWrap<HandWrap<HandWrap<HandWrap<HandCounter>>>>>
typealias HandDepth10 = HandWrap<HandWrap<HandWrap<HandWrap<HandWrap<HandDepth5>>>>>

@MainActor
func w4HandFloor5(_ handle: BenchmarkHandle) {
  let floor = HandStore<HandDepth5>(
    initialState: .init(child: .init(child: .init(child: .init(child: .init(child: .init()))))))
  handle.measure {
    for _ in 0..<Size.sends {
      floor.send(.child(.child(.child(.child(.child(.increment))))))
    }
  }
  let count = floor.state.child.child.child.child.child.count
  handle.check(count == Size.sends, "W4 depth 5 floor: count is \(count)")
}

@MainActor
func w4HandFloor10(_ handle: BenchmarkHandle) {
  let floor = HandStore<HandDepth10>(
    initialState: .init(
      child: .init(
        child: .init(
          child: .init(
            child: .init(
              child: .init(
                child: .init(child: .init(child: .init(child: .init(child: .init())))))))))))
  handle.measure {
    for _ in 0..<Size.sends {
      floor.send(
        .child(.child(.child(.child(.child(.child(.child(.child(.child(.child(.increment)))))))))))
    }
  }
  let count = floor.state.child.child.child.child.child.child.child.child.child.child.count
  handle.check(count == Size.sends, "W4 depth 10 floor: count is \(count)")
}
