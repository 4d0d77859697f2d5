import ConcurrencyExtras
import IdentifiedCollections
import Observation
import Testing

@testable import Statecraft

/// What the cheaper paths of `store.states`, `observe` and effects must keep: the stream's
/// documented semantics, an observer that re-renders on its field only, `.none` as nothing.
extension Engine {
  @MainActor
  @Suite struct StreamAndObserveTests {
    // MARK: - store.states

    @Test func statesGivesTheLatestStateAfterABurstReadOrUnread() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      var states = store.states.makeAsyncIterator()
      for _ in 1...1_000 { store.send(.increment) }
      #expect(await states.next()?.count == 1_000)
      for _ in 1...1_000 { store.send(.increment) }
      #expect(await states.next()?.count == 2_000)
    }

    @Test func statesGivesAChangeBackToAnEarlierState() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      var states = store.states.makeAsyncIterator()
      #expect(await states.next()?.count == 0)
      store.send(.increment)
      store.send(.decrement)
      // Each batch changed the state: the newest change, back to 0, is unread.
      #expect(await states.next()?.count == 0)
      store.send(.setText("x"))
      #expect(await states.next() == Counter.State(count: 0, text: "x"))
    }

    @Test func statesGivesTheStateAtSubscriptionWhenNothingChanged() async {
      let store = Store(initialState: Counter.State(count: 7)) { Counter() }
      var states = store.states.makeAsyncIterator()
      store.send(.setCount(7))
      #expect(await states.next()?.count == 7)
    }

    @Test func anUnreadStatesStreamGivesTheLastStateThenEndsWhenTheStoreIsReleased() async {
      var store: StoreOf<Counter>? = Store(initialState: Counter.State()) { Counter() }
      var states = store!.states.makeAsyncIterator()
      for _ in 1...3 { store!.send(.increment) }
      store = nil
      #expect(await states.next()?.count == 3)
      #expect(await states.next() == nil)
    }

    @Test func aStatesReaderGetsTheLatestStateWhetherItWaitedOrNot() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      let stream = store.states
      let reader = Task {
        var last = -1
        for await state in stream {
          last = state.count
          if last == 3 { break }
        }
        return last
      }
      await Task.yield()
      for _ in 1...3 { store.send(.increment) }
      #expect(await reader.value == 3)
    }

    @Test func cancellingAStatesReaderEndsItsStream() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      let stream = store.states
      let reader = Task {
        var count = 0
        for await _ in stream { count += 1 }
        return count
      }
      await Task.yield()
      reader.cancel()
      #expect(await reader.value <= 1)
      store.send(.increment)
    }

    @Test func aReleasedStatesStreamStopsBeingPublished() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      let observers = store.core.runtime.observers.streamObserverCount
      do {
        var states = store.states.makeAsyncIterator()
        #expect(await states.next()?.count == 0)
        store.send(.increment)
        #expect(store.core.runtime.observers.streamObserverCount == observers + 1)
      }
      store.send(.increment)
      #expect(store.core.runtime.observers.streamObserverCount == observers)
    }

    // MARK: - observe

    @Test func anObserverReRendersOnItsFieldOnlyAcrossManyReReads() {
      let store = Store(initialState: Counter.State()) { Counter() }
      var seen: [Int] = []
      let token = store.observe { store in seen.append(store.count) }
      for round in 1...50 {
        store.send(.setText("\(round)"))
        store.send(.increment)
      }
      #expect(seen == Array(0...50))
      #expect(store.observation.knownKeyPaths.count == 1)
      token.cancel()
    }

    @Test func aRowObserverReRendersOnItsRowOnly() {
      let store = Store(initialState: Board.State()) { Board() }
      let rowStores = (1...5).map {
        store.scope(state: \.cells, id: $0, action: Board.Action.cells)!
      }
      var renders = [Int](repeating: 0, count: 5)
      let tokens = rowStores.enumerated().map { index, row in
        row.observe { row in
          _ = row.value
          renders[index] += 1
        }
      }
      for _ in 1...10 { store.send(.cells(.element(id: 3, action: .bump))) }
      #expect(renders == [1, 1, 11, 1, 1])
      withExtendedLifetime(tokens) {}
    }

    @Test func aFieldNoLongerObservedIsNotKeptAlive() {
      let store = Store(initialState: BoxHolder.State()) { BoxHolder() }
      weak var first: WatchedBox?
      do {
        let box = WatchedBox()
        first = box
        store.send(.set(box))
      }
      _ = store.box
      store.send(.set(WatchedBox()))
      // The change was told; the value the reader saw is let go of until the field is read again.
      #expect(first == nil)
      _ = store.box
      #expect(store.observation.observedValues.count == 1)
    }

    // MARK: - Effects

    @Test func noneIsNoneWhateverBuiltIt() {
      #expect(Effect<Int>.none.isNone)
      #expect(Effect<Int>.merge([]).isNone)
      #expect(Effect<Int>.merge(.none, .none).isNone)
      #expect(Effect<Int>.concatenate(.none).isNone)
      #expect(Effect<Int>.none.map { $0 + 1 }.isNone)
      #expect(!Effect<Int>.send(1).isNone)
      #expect(!Effect<Int>.run { _ in }.isNone)
      #expect(!Effect<Int>.cancel(id: "a").isNone)
      #expect(!Effect<Int>.send(1).map { $0 + 1 }.isNone)
    }
  }
}

/// A reference the tests can watch being released.
final class WatchedBox: Equatable, Sendable {
  static func == (lhs: WatchedBox, rhs: WatchedBox) -> Bool { lhs === rhs }
}

/// Holds a `WatchedBox` in its state.
struct BoxHolder: Reducer {
  struct State: Equatable, Sendable {
    var box = WatchedBox()
  }

  enum Action: Sendable {
    case set(WatchedBox)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .set(let box):
      state.box = box
      return .none
    }
  }
}
