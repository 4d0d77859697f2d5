import StatecraftMacros
import StatecraftTesting
import Testing

extension Engine {
  /// `@ViewAction(for:)`: a view sends its actions with `send(_:)`, wrapped in the `view` case.
  @MainActor
  @Suite struct ViewActionTests {
    @Reducer
    struct Stepper {
      @ObservableState
      struct State: Equatable {
        var count = 0
        var log: [String] = []
      }
      enum Action: ViewAction {
        case view(View)
        case logged(String)
        enum View { case incrementTapped, resetTapped }
      }
      // NB: a body of two reducers, which compiles only with the `@ReducerBuilder` that
      // `@Reducer` writes on it (the conformance is in the macro's extension).
      var body: some ReducerOf<Self> {
        Reduce { state, action in
          switch action {
          case .view(.incrementTapped):
            state.count += 1
            return .send(.logged("increment"))
          case .view(.resetTapped):
            state.count = 0
            return .none
          case .logged:
            return .none
          }
        }
        Reduce { state, action in
          if case .logged(let entry) = action { state.log.append(entry) }
          return .none
        }
      }
    }

    // NB: `@MainActor`, as SwiftUI's `View` and UIKit's view controllers are.
    @ViewAction(for: Stepper.self)
    @MainActor
    struct StepperView {
      let store: StoreOf<Stepper>
      func tapIncrement() { send(.incrementTapped) }
    }

    @Test func aViewsSendWrapsItsActionInTheViewCase() async {
      let store = Store(initialState: Stepper.State()) { Stepper() }
      let view = StepperView(store: store)
      view.tapIncrement()
      await view.send(.incrementTapped).finish()
      #expect(store.count == 2)
      #expect(store.log == ["increment", "increment"])
      view.send(.resetTapped)
      #expect(store.count == 0)
    }

    @Test func aTestStoreReceivesTheViewCase() async {
      let store = TestStore(initialState: Stepper.State()) { Stepper() }
      await store.send(.view(.incrementTapped)) { $0.count = 1 }
      await store.receive(\.logged) { $0.log = ["increment"] }
    }
  }
}
