import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// An assertion closure must describe a change that happened; `store.assert` checks the state
  /// outside a send or a receive.
  @MainActor
  @Suite struct StateAssertionTests {
    struct Feature: Reducer {
      struct State: Equatable, Sendable { var count = 0 }
      enum Action: Equatable, Sendable { case increment, noop, load, loaded(Int) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment: state.count += 1
        case .noop: break
        case .load: return .run { send in await send(.loaded(42)) }
        case .loaded(let value): state.count = value
        }
        return .none
      }
    }

    @Test func anAssertionOfAChangeThatDidNotHappenFails() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await expectOneFailure(containing: ["Expected state to change, but no change occurred"]) {
        await store.send(.noop) { $0.count = 0 }
      }
      await store.finish()
    }

    @Test func aReceiveAssertingAChangeThatDidNotHappenFails() async {
      let store = TestStore(initialState: Feature.State(count: 42)) { Feature() }
      await store.send(.load)
      await expectOneFailure(containing: ["Expected state to change, but no change occurred"]) {
        await store.receive(.loaded(42)) { $0.count = 42 }
      }
      await store.finish()
    }

    @Test func aNonExhaustiveAssertionMayRestateAValueThatDidNotChange() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.noop) { $0.count = 0 }
      await store.finish()
    }

    @Test func theStateCanStillBeAssertedAfterFinish() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 1 }
      await store.finish()
      store.assert { $0.count = 1 }
      #expect(store.state.count == 1)
    }

    @Test func storeAssertChecksTheCurrentState() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.load)
      store.assert { $0.count = 42 }
      await expectOneFailure(containing: ["does not match the assertion", "count"]) {
        store.assert { $0.count = 3 }
      }
      await store.finish()
    }
  }
}
