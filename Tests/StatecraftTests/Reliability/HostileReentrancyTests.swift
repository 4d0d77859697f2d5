import Clocks
import ConcurrencyExtras
import IdentifiedCollections
import Testing

@testable import Statecraft

/// A child whose effects use cancellation ids, debounce and throttle, inside a parent that uses
/// the same ids.
struct Kid: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case startTimer
    case tick
    case cancelTimerFromEffect
    case search
    case searched
    case tap(Int)
    case tapped(Int)
  }

  let clock: TestClock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
      .cancellable(id: "timer")
    case .tick:
      state.log.append("tick")
      return .none
    case .cancelTimerFromEffect:
      return .run { _ in await Task.cancel(id: "timer") }
    case .search:
      return .send(.searched).debounce(id: "search", for: .seconds(1), clock: clock)
    case .searched:
      state.log.append("searched")
      return .none
    case .tap(let value):
      return .send(.tapped(value)).throttle(
        id: "tap", for: .seconds(1), clock: clock, latest: true)
    case .tapped(let value):
      state.log.append("tapped \(value)")
      return .none
    }
  }
}

struct Household: Reducer {
  struct State: Equatable, Sendable {
    var log: [String] = []
    var child: Kid.State?
    var rows: IdentifiedArrayOf<Kid.State> = []
  }

  enum Action: Equatable, Sendable {
    case child(Kid.Action)
    case rows(IdentifiedActionOf<Kid>)
    case startTimer
    case tick
    case addRow(Int)
    case removeRow(Int)
    case dismiss
    case cancelTimerFromEffect

    static let childCase = casePath(Action.child) {
      if case .child(let action) = $0 { action } else { nil }
    }
    static let rowsCase = casePath(Action.rows) {
      if case .rows(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .startTimer:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
        .cancellable(id: "timer")
      case .tick:
        state.log.append("tick")
      case .addRow(let id):
        state.rows.append(Kid.State(id: id))
      case .removeRow(let id):
        state.rows.remove(id: id)
      case .dismiss:
        state.child = nil
      case .cancelTimerFromEffect:
        return .run { _ in await Task.cancel(id: "timer") }
      case .child, .rows:
        break
      }
      return .none
    }
    .ifLet(\.child, action: Action.childCase) { Kid(clock: clock) }
    .forEach(\.rows, action: Action.rowsCase) { Kid(clock: clock) }
  }
}

extension Engine {
  /// Re-entrant sends from observers and subscribers, cancellation across the parent and child
  /// boundary, and timing operators whose child leaves mid-window.
  @MainActor
  @Suite struct HostileReentrancyTests {
    func household(
      child: Kid.State? = nil, rows: [Int] = [], clock: TestClock<Duration>
    ) -> StoreOf<Household> {
      Store(
        initialState: Household.State(
          child: child,
          rows: IdentifiedArray(uniqueElements: rows.map { Kid.State(id: $0) }))
      ) {
        Household(clock: clock)
      }
    }

    @Test func anObserverThatSendsIsAnsweredBeforeTheOuterSendReturns() {
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { state, amount in
          state += amount
          return .none
        }
      }
      var seen: [Int] = []
      let token = store.observe { store in
        seen.append(store.state)
        if store.state == 1 { store.send(10) }
      }
      store.send(1)
      #expect(store.state == 11)
      #expect(seen == [0, 1, 11])
      store.send(1)
      #expect(seen == [0, 1, 11, 12])
      withExtendedLifetime(token) {}
    }

    @Test func anObserverThatRemovesTheRowWhoseEffectDeliveredLeavesTheOtherRows() async {
      let clock = TestClock()
      let store = household(rows: [1, 2], clock: clock)
      store.send(.rows(.element(id: 1, action: .startTimer)))
      let token = store.observe { store in
        for row in store.rows where row.log.contains("tick") && row.id == 1 {
          store.send(.removeRow(row.id))
        }
      }
      let second = store.send(.rows(.element(id: 2, action: .startTimer)))
      await clock.run()
      await second.finish()
      #expect(store.rows == [Kid.State(id: 2, log: ["tick"])])
      #expect(store.core.runtime.effects.activeEffectCount == 0)
      withExtendedLifetime(token) {}
    }

    @Test func taskCancelFromAChildEffectCancelsTheChildsIDNotTheParents() async {
      let clock = TestClock()
      let store = household(child: Kid.State(id: 1), clock: clock)
      let parentTimer = store.send(.startTimer)
      let childTimer = store.send(.child(.startTimer))
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      await store.send(.child(.cancelTimerFromEffect)).finish()
      #expect(store.core.runtime.effects.activeEffectCount == 1)
      await clock.run()
      await parentTimer.finish()
      await childTimer.finish()
      #expect(store.log == ["tick"])
      #expect(store.child?.log == [])
    }

    @Test func taskCancelFromOneRowsEffectLeavesTheOtherRowsTimers() async {
      let clock = TestClock()
      let store = household(rows: [1, 2], clock: clock)
      let timers = [1, 2].map { store.send(.rows(.element(id: $0, action: .startTimer))) }
      await store.send(.rows(.element(id: 1, action: .cancelTimerFromEffect))).finish()
      await clock.run()
      for timer in timers { await timer.finish() }
      #expect(store.rows.map(\.log) == [[], ["tick"]])
    }

    @Test func aDebounceWhoseRowIsRemovedMidWindowDeliversNothing() async {
      let clock = TestClock()
      let store = household(rows: [1, 2], clock: clock)
      let searches = [1, 2].map { store.send(.rows(.element(id: $0, action: .search))) }
      await clock.advance(by: .milliseconds(500))
      let running = store.core.runtime.effects.activeEffectCount
      store.send(.removeRow(1))
      #expect(store.core.runtime.effects.activeEffectCount == running / 2)
      await clock.run()
      for search in searches { await search.finish() }
      #expect(store.rows == [Kid.State(id: 2, log: ["searched"])])
    }

    @Test func aThrottleWhoseChildIsDismissedMidWindowDeliversNothingHeldBack() async {
      let clock = TestClock()
      let store = household(child: Kid.State(id: 1), clock: clock)
      store.send(.child(.tap(1)))
      store.send(.child(.tap(2)))  // held back
      #expect(store.child?.log == ["tapped 1"])
      store.send(.dismiss)
      #expect(store.core.runtime.effects.activeEffectCount == 0)
      await clock.run()
      #expect(store.child == nil)
    }

    @Test func aRowRemovedMidThrottleWindowAndAddedBackStartsWithAClosedWindow() async {
      let clock = TestClock()
      let store = household(rows: [1], clock: clock)
      store.send(.rows(.element(id: 1, action: .tap(1))))
      store.send(.rows(.element(id: 1, action: .tap(2))))  // held back
      store.send(.removeRow(1))
      store.send(.addRow(1))
      store.send(.rows(.element(id: 1, action: .tap(3))))
      #expect(store.rows[id: 1]?.log == ["tapped 3"])
      await clock.run()
      #expect(store.rows[id: 1]?.log == ["tapped 3"])
      #expect(store.core.runtime.effects.activeEffectCount == 0)
    }

    @Test func aDebouncedRowRemovedAndAddedBackInSeparateActionsLosesItsPendingSearch() async {
      let clock = TestClock()
      let store = household(rows: [1], clock: clock)
      let search = store.send(.rows(.element(id: 1, action: .search)))
      store.send(.removeRow(1))
      store.send(.addRow(1))
      #expect(store.core.runtime.effects.activeEffectCount == 0)
      await clock.run()
      await search.finish()
      #expect(store.rows[id: 1]?.log == [])
    }
    @Test func taskCancelFromAParentEffectCancelsTheParentsIDNotTheChilds() async {
      let clock = TestClock()
      let store = household(child: Kid.State(id: 1), rows: [2], clock: clock)
      let timers = [
        store.send(.startTimer), store.send(.child(.startTimer)),
        store.send(.rows(.element(id: 2, action: .startTimer))),
      ]
      await store.send(.cancelTimerFromEffect).finish()
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      await clock.run()
      for timer in timers { await timer.finish() }
      #expect(store.log == [])
      #expect(store.child?.log == ["tick"])
      #expect(store.rows[id: 2]?.log == ["tick"])
    }
  }
}
