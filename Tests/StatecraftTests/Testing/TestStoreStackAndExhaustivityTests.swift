import CasePaths
import IssueReporting
import StatecraftTesting
import Testing

@testable import Statecraft

/// A root with a navigation stack of counters, as a TCA app's root stack is.
private struct StackRoot: Reducer {
  struct State: Equatable {
    var path = StackState<StackCounter.State>()
  }
  @CasePathable
  enum Action: Equatable {
    case push
    case path(StackActionOf<StackCounter>)
    case writeAtMissingID(StackElementID)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push:
        state.path.append(StackCounter.State())
      case .path:
        break
      case .writeAtMissingID(let id):
        state.path[id: id] = StackCounter.State(count: 99)
      }
      return .none
    }
    .forEach(\.path, action: \.path) { StackCounter() }
  }
}

private struct StackCounter: Reducer {
  struct State: Equatable { var count = 0 }
  @CasePathable
  enum Action: Equatable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

extension Engine {
  /// Test-store behaviours a TCA app's test suite relies on: numbered stack ids, writes at a
  /// missing id, and non-exhaustive assertions that run once.
  @MainActor
  @Suite struct TestStoreStackAndExhaustivityTests {
    // MARK: - Non-exhaustive assertions run once

    @Test func aNonExhaustiveAssertionRunsOnceOnTheActualState() async {
      let store = TestStore(initialState: StackCounter.State(count: 5)) { StackCounter() }
      store.exhaustivity = .off
      var runs = 0
      await store.send(.increment) {
        runs += 1
        #expect($0.count == 6)
        $0.count = 6
      }
      #expect(runs == 1)
    }

    @Test func aNonExhaustiveReceiveAssertionRunsOnceOnTheActualState() async {
      enum Action: Equatable { case tap, response(Int) }
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .tap: return .send(.response(3))
          case .response(let value):
            state += value
            return .none
          }
        }
      }
      store.exhaustivity = .off
      var seen: [Int] = []
      await store.send(.tap)
      await store.receive(.response(3)) {
        seen.append($0)
        $0 = 3
      }
      #expect(seen == [3])
    }

    // MARK: - Stack ids in tests

    @Test func aTestStoresStackIdsCountFromZero() async {
      let store = TestStore(initialState: StackRoot.State()) { StackRoot() }
      await store.send(.push) { $0.path[id: 0] = StackCounter.State() }
      await store.send(.push) { $0.path[id: 1] = StackCounter.State() }
      await store.send(.path(.element(id: 1, action: .increment))) {
        $0.path[id: 1]?.count = 1
      }
      await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
      await store.send(.push) { $0.path[id: 2] = StackCounter.State() }
      #expect(store.state.path.ids == [2])
    }

    @Test func anAssertionThatAppendsTakesNoIdFromTheStore() async {
      let store = TestStore(initialState: StackRoot.State()) { StackRoot() }
      await store.send(.push) { $0.path.append(StackCounter.State()) }
      await store.send(.push) { $0.path.append(StackCounter.State()) }
      #expect(store.state.path.ids == [0, 1])
    }

    @Test func anInitialStatesStackTakesTheFirstIds() async {
      let store = TestStore(initialState: StackRoot.State(path: [StackCounter.State()])) {
        StackRoot()
      }
      await store.send(.push) { $0.path[id: 1] = StackCounter.State() }
      await store.send(.path(.element(id: 0, action: .increment))) {
        $0.path[id: 0]?.count = 1
      }
    }

    // MARK: - A write at a missing stack id

    @Test func aReducersWriteAtAMissingStackIdIsReported() async {
      let store = Store(initialState: StackRoot.State()) { StackRoot() }
      store.send(.push)
      await expectOneFailure(containing: ["at an id it doesn't hold", "#7"]) {
        store.send(.writeAtMissingID(7))
      }
      #expect(store.path.count == 1)
    }

    @Test func anAssertionsWriteAtAMissingIdFailsWhenTheStoreDidNotPushIt() async {
      let store = TestStore(initialState: StackRoot.State()) { StackRoot() }
      await expectOneFailure(containing: ["does not match the assertion"]) {
        await store.send(.push) {
          $0.path[id: 0] = StackCounter.State()
          $0.path[id: 5] = StackCounter.State()
        }
      }
    }
  }
}
