import Clocks
import ConcurrencyExtras
import Observation
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct ObservationTests {
    @Test func anObserverOfCountIsNotNotifiedWhenOnlyTextChanges() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let notified = track { _ = store.count }
      store.send(.setText("hello"))
      #expect(notified.value == 0)
      store.send(.increment)
      #expect(notified.value == 1)
    }

    @Test func assigningAnEqualValueNotifiesNobody() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let notified = track { _ = store.count }
      store.send(.setCount(0))
      #expect(notified.value == 0)
    }

    @Test func computedPropertiesAreObservedByTheirValue() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let notified = track { _ = store.isEven }
      store.send(.setCount(2))
      #expect(notified.value == 0)
      store.send(.setCount(3))
      #expect(notified.value == 1)
    }

    @Test func theWholeStateIsObservedThroughState() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let notified = track { _ = store.state }
      store.send(.setText("a"))
      #expect(notified.value == 1)
    }

    @Test func anObserverIsNotifiedOncePerBatch() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let notified = track {
        _ = store.count
        _ = store.text
      }
      store.send(.incrementThrice)
      #expect(notified.value == 1)
    }

    @Test func childStoreObservationIsPerRow() {
      let store = Store(initialState: List.State()) { List(clock: TestClock()) }
      for id in 1...3 { store.send(.addRow(id)) }
      let rows = (1...3).map { id in
        store.scope(state: \.rows[id: id], action: { .rows(.element(id: id, action: $0)) })!
      }
      let notified = rows.map { row in track { _ = row.value } }
      store.send(.rows(.element(id: 2, action: .toggle)))
      #expect(notified.map(\.value) == [0, 1, 0])
    }

    @Test func anOptionalScopeObservesPresenceNotContents() {
      let store = Store(initialState: List.State()) { List(clock: TestClock()) }
      store.send(.showDetail(1))
      let notified = track { _ = store.scope(state: \.detail, action: List.Action.detail) }
      store.send(.detail(.toggle))
      #expect(notified.value == 0)
      store.send(.hideDetail)
      #expect(notified.value == 1)
    }

    @Test func observeRerunsOnlyWhenWhatItReadChanges() {
      let store = Store(initialState: Counter.State()) { Counter() }
      var seen: [Int] = []
      let token = store.observe { store in seen.append(store.count) }
      store.send(.setText("ignored"))
      store.send(.increment)
      store.send(.increment)
      #expect(seen == [0, 1, 2])
      token.cancel()
      store.send(.increment)
      #expect(seen == [0, 1, 2])
    }

    @Test func observeStopsWhenItsTokenIsReleased() {
      let store = Store(initialState: Counter.State()) { Counter() }
      var seen: [Int] = []
      var token: ObserveToken? = store.observe { store in seen.append(store.count) }
      store.send(.increment)
      _ = token
      token = nil
      store.send(.increment)
      #expect(seen == [0, 1])
    }

    @Test func valuesEmitsTheCurrentValueThenEachChange() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      var values = store.values(\.count).makeAsyncIterator()
      #expect(await values.next() == 0)
      store.send(.increment)
      #expect(await values.next() == 1)
      store.send(.setText("not a change of count"))
      store.send(.increment)
      #expect(await values.next() == 2)
    }

    @Test func valuesKeepsOnlyTheLatestUnreadValue() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      var values = store.values(\.count).makeAsyncIterator()
      for _ in 1...1_000 { store.send(.increment) }
      #expect(await values.next() == 1_000)
    }

    @Test func statesSkipsBatchesThatLeftTheStateUnchanged() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      var states = store.states.makeAsyncIterator()
      #expect(await states.next()?.count == 0)
      store.send(.setCount(0))
      store.send(.setText("x"))
      #expect(await states.next() == Counter.State(count: 0, text: "x"))
    }

    @Test func streamsEndWhenTheStoreIsReleased() async {
      var store: StoreOf<Counter>? = Store(initialState: Counter.State()) { Counter() }
      var values = store!.values(\.count).makeAsyncIterator()
      #expect(await values.next() == 0)
      store = nil
      #expect(await values.next() == nil)
    }

    @Test func readingAFieldKeepsOnlyThatValueNotTheWholeState() {
      let store = Store(initialState: Counter.State()) { Counter() }
      _ = store.count
      _ = store.isEven
      #expect(store.observation.observedValues.count == 2)
      store.send(.increment)
      // Both changed and were told; they are forgotten until read again.
      #expect(store.observation.observedValues.isEmpty)
    }
  }
}

extension Engine.ObservationTests {
  // MARK: - Fields named like store members (issue 14, item 13)

  struct Named: Reducer {
    struct State: Equatable {
      var values: [Int] = []
      var state = "idle"
      var send = 0
    }
    enum Action: Equatable {
      case append(Int)
      case rename(String)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .append(let value): state.values.append(value)
      case .rename(let name): state.state = name
      }
      return .none
    }
  }

  @Test func theSubscriptReadsAndObservesAFieldNamedLikeAStoreMember() {
    let store = Store(initialState: Named.State()) { Named() }
    let valuesChanged = LockIsolated(0)
    withObservationTracking {
      _ = store[\.values]
    } onChange: {
      valuesChanged.withValue { $0 += 1 }
    }
    store.send(.rename("busy"))
    #expect(valuesChanged.value == 0)
    #expect(store[\.state] == "busy")
    store.send(.append(1))
    #expect(valuesChanged.value == 1)
    #expect(store[\.values] == [1])
    #expect(store[\.send] == 0)
  }
}
