import StatecraftTesting
import Testing

@testable import Statecraft

/// The swiftui-async-feedback migration guide's counter screen, converted and run.
extension Engine {
  @MainActor
  @Suite struct SwiftUIAsyncFeedbackMigrationTests {
    // docs:begin MigratingFromSwiftUIAsyncFeedback
    struct CounterScreenSystem: FeedbackSystem {
      struct State: Equatable, Sendable {
        var count = 1
        var message: String?
      }

      enum Event: BindableAction, Equatable, Sendable {
        case binding(BindingAction<State>)
        case setMessage(String?)
      }

      func reduce(into state: inout State, event: Event) {
        switch event {
        case .binding(let binding):
          binding.apply(to: &state)
        case .setMessage(let message):
          state.message = message
        }
      }

      var feedbacks: [Feedback<State, Event>] {
        [
          Feedback(.onChanged(\.count)) { state in
            .setMessage(state.count.isMultiple(of: 3) ? "multiple of 3!!" : nil)
          }
        ]
      }
    }
    // docs:end

    @Test func theMessageFollowsTheCountSetThroughTheBinding() async {
      // docs:begin MigratingFromSwiftUIAsyncFeedback
      let store = TestStore(
        initialState: CounterScreenSystem.State(), system: CounterScreenSystem())
      await store.receive(.setMessage(nil))  // `.onChanged` fires on the initial state
      await store.send(.binding(.set(\.count, 3))) { $0.count = 3 }
      await store.receive(.setMessage("multiple of 3!!")) { $0.message = "multiple of 3!!" }
      await store.send(.binding(.set(\.count, 4))) { $0.count = 4 }
      await store.receive(.setMessage(nil)) { $0.message = nil }
      await store.finish()
      // docs:end
    }

    @Test func theStepperBindingSendsABindingEvent() async {
      let store = Store(initialState: CounterScreenSystem.State(), system: CounterScreenSystem())
      let loop = Task { await store.run() }
      let count = store.binding(\.count)
      count.wrappedValue = 3
      await store.wait(while: { $0.message == nil })
      #expect(store.count == 3)
      #expect(store.message == "multiple of 3!!")
      loop.cancel()
      await loop.value
    }
  }
}
