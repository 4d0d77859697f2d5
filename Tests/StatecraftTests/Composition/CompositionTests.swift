import Clocks
import ConcurrencyExtras
import IdentifiedCollections
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct CompositionTests {
    struct Parent: Reducer {
      struct State: Equatable {
        var child = Counter.State()
        var childCountSeenByParent: Int?
      }
      enum Action: Equatable {
        case child(Counter.Action)
        static let childCase = casePath(Action.child) {
          if case .child(let action) = $0 { action } else { nil }
        }
      }
      var body: some Reducer<State, Action> {
        Scope(state: \.child, action: Action.childCase) { Counter() }
        Reduce { state, action in
          state.childCountSeenByParent = state.child.count
          return .none
        }
      }
    }

    @Test func scopeRunsTheChildBeforeTheParent() {
      let store = Store(initialState: Parent.State()) { Parent() }
      store.send(.child(.increment))
      #expect(store.child.count == 1)
      #expect(store.childCountSeenByParent == 1)
    }

    @Test func scopeLiftsTheChildsEffects() async {
      let store = Store(initialState: Parent.State()) { Parent() }
      await store.send(.child(.incrementThrice)).finish()
      #expect(store.child.count == 3)
    }

    /// A feature that holds a `Scope` built once (a stored property), around `Parent`'s.
    struct Outer: Reducer {
      struct State: Equatable {
        var parent = Parent.State()
      }
      enum Action: Equatable {
        case parent(Parent.Action)
        static let parentCase = casePath(Action.parent) {
          if case .parent(let action) = $0 { action } else { nil }
        }
      }
      let scope = Scope(state: \State.parent, action: Action.parentCase) { Parent() }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        scope.reduce(into: &state, action: action)
      }
    }

    @Test func aScopeBuiltOnceReducesTheStateOfEachStoreThatHoldsIt() async {
      let outer = Outer()
      let first = Store(initialState: Outer.State()) { outer }
      let second = Store(initialState: Outer.State()) { outer }
      first.send(.parent(.child(.increment)))
      await second.send(.parent(.child(.incrementThrice))).finish()
      #expect(first.parent == Parent.State(child: .init(count: 1), childCountSeenByParent: 1))
      #expect(second.parent == Parent.State(child: .init(count: 3), childCountSeenByParent: 3))
    }

    @Test func builderSupportsConditionsAndLoops() {
      struct Feature: Reducer {
        let double: Bool
        let extraSteps: Int
        var body: some Reducer<Int, Int> {
          if double {
            Reduce { state, action in
              state += action
              return .none
            }
          } else {
            EmptyReducer()
          }
          for _ in 0..<extraSteps {
            Reduce { state, action in
              state += action
              return .none
            }
          }
          if extraSteps > 5 {
            Reduce { state, _ in
              state = -1
              return .none
            }
          }
        }
      }
      let doubled = Store(initialState: 0) { Feature(double: true, extraSteps: 2) }
      doubled.send(1)
      #expect(doubled.state == 3)
      let plain = Store(initialState: 0) { Feature(double: false, extraSteps: 1) }
      plain.send(1)
      #expect(plain.state == 1)
    }

    @Test func combineReducersGroupsReducersForAnOperator() {
      let store = Store(initialState: Counter.State()) {
        CombineReducers {
          Counter()
          Reduce { _, _ in .none }
        }
        .onChange(of: \.count) { oldValue, newValue in
          Reduce { state, _ in
            state.text = "\(oldValue) → \(newValue)"
            return .none
          }
        }
      }
      store.send(.increment)
      #expect(store.text == "0 → 1")
      store.send(.setText("kept"))
      #expect(store.text == "kept")
      store.send(.setCount(1))
      #expect(store.text == "kept")
    }

    // MARK: - ifLet

    @Test func ifLetRunsTheChildWhileItsStateIsPresent() async {
      let clock = TestClock()
      let store = Store(initialState: List.State()) { List(clock: clock) }
      store.send(.showDetail(7))
      store.send(.detail(.toggle))
      #expect(store.detail?.value == 1)
      let task = store.send(.detail(.load))
      await clock.advance(by: .seconds(1))
      await task.finish()
      #expect(store.detail?.value == 70)
    }

    @Test func ifLetCancelsTheChildsEffectsWhenItsStateBecomesNil() async {
      let clock = TestClock()
      let store = Store(initialState: List.State()) { List(clock: clock) }
      store.send(.showDetail(7))
      let load = store.send(.detail(.load))
      #expect(store.runningEffectCount == 1)
      store.send(.hideDetail)
      await load.finish()
      #expect(store.runningEffectCount == 0)
      await clock.run()
      #expect(store.detail == nil)
    }

    // MARK: - forEach

    @Test func forEachRowsUsingTheSameIDDoNotCancelEachOther() async {
      let clock = TestClock()
      let store = Store(initialState: List.State()) { List(clock: clock) }
      store.send(.addRow(1))
      store.send(.addRow(2))
      let first = store.send(.rows(.element(id: 1, action: .load)))
      let second = store.send(.rows(.element(id: 2, action: .load)))
      #expect(store.runningEffectCount == 2)
      await clock.advance(by: .seconds(1))
      await first.finish()
      await second.finish()
      #expect(store.rows.map(\.value) == [10, 20])
    }

    @Test func forEachCancelInFlightStaysWithinOneRow() async {
      let clock = TestClock()
      let store = Store(initialState: List.State()) { List(clock: clock) }
      store.send(.addRow(1))
      let first = store.send(.rows(.element(id: 1, action: .load)))
      let second = store.send(.rows(.element(id: 1, action: .load)))
      await first.finish()  // cancelled by the second load of the same row
      #expect(store.runningEffectCount == 1)
      await clock.advance(by: .seconds(1))
      await second.finish()
      #expect(store.rows[id: 1]?.value == 10)
    }

    @Test func forEachCancelsTheEffectsOfARemovedRow() async {
      let clock = TestClock()
      let store = Store(initialState: List.State()) { List(clock: clock) }
      store.send(.addRow(1))
      store.send(.addRow(2))
      let removed = store.send(.rows(.element(id: 1, action: .load)))
      let kept = store.send(.rows(.element(id: 2, action: .load)))
      store.send(.removeRow(1))
      await removed.finish()
      #expect(store.runningEffectCount == 1)
      await clock.advance(by: .seconds(1))
      await kept.finish()
      #expect(store.rows.map(\.value) == [20])
    }

    @Test func forEachTogglesARowInPlace() {
      let store = Store(initialState: List.State()) { List(clock: TestClock()) }
      for id in 1...3 { store.send(.addRow(id)) }
      store.send(.rows(.element(id: 2, action: .toggle)))
      #expect(store.rows.map(\.value) == [0, 1, 0])
    }

    // MARK: - onChange

    @Test func onChangeRunsOnlyWhenTheValueChanged() {
      let changes = LockIsolated<[String]>([])
      let store = Store(initialState: Counter.State()) {
        Counter()
          .onChange(of: \.isEven) { oldValue, newValue in
            Reduce { _, _ in
              changes.withValue { $0.append("\(oldValue)→\(newValue)") }
              return .none
            }
          }
      }
      store.send(.increment)
      store.send(.setText("no change"))
      store.send(.setCount(3))
      store.send(.increment)
      #expect(changes.value == ["true→false", "false→true"])
    }
  }
}

extension Engine.CompositionTests {
  @Test func onChangeWithRemoveDuplicatesRunsWhenThePredicateSaysItChanged() {
    let changes = LockIsolated<[String]>([])
    let store = Store(initialState: Counter.State()) {
      Counter()
        .onChange(of: \.text, removeDuplicates: { $0.lowercased() == $1.lowercased() }) {
          oldValue, newValue in
          Reduce { _, _ in
            changes.withValue { $0.append("\(oldValue)→\(newValue)") }
            return .none
          }
        }
    }
    store.send(.setText("a"))
    store.send(.setText("A"))
    store.send(.setText("b"))
    #expect(changes.value == ["→a", "A→b"])
  }

  @Test func onChangeWithRemoveDuplicatesWorksForValuesThatAreNotEquatable() {
    struct Box { var value: Int }
    let changes = LockIsolated<[Int]>([])
    let store = Store(initialState: Counter.State()) {
      Counter()
        .onChange(of: { Box(value: $0.count) }, removeDuplicates: { $0.value == $1.value }) {
          _, newValue in
          Reduce { _, _ in
            changes.withValue { $0.append(newValue.value) }
            return .none
          }
        }
    }
    store.send(.increment)
    store.send(.setText("x"))
    store.send(.increment)
    #expect(changes.value == [1, 2])
  }
}
