import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// A feedback system's test store waits for the feedbacks in flight at `finish()`, so their
  /// events must be received.
  @MainActor
  @Suite struct FeedbackTestStoreTests {
    struct Parity: FeedbackSystem {
      struct State: Equatable, Sendable {
        var count = 0
        var parity = "even"
      }
      enum Event: Equatable, Sendable { case increment, setParity(String) }
      func reduce(into state: inout State, event: Event) {
        switch event {
        case .increment: state.count += 1
        case .setParity(let parity): state.parity = parity
        }
      }
      var feedbacks: [Feedback<State, Event>] {
        [
          Feedback(.onChanged(\.count)) { state in
            state.count == 0 ? nil : .setParity(state.count.isMultiple(of: 2) ? "even" : "odd")
          }
        ]
      }
    }

    @Test func theEventOfAFeedbackTheLastSendTriggeredMustBeReceived() async {
      let store = TestStore(initialState: Parity.State(), system: Parity())
      await store.send(.increment) { $0.count = 1 }
      await expectOneFailure(containing: ["received 1 unexpected action", "setParity"]) {
        await store.finish()
      }
    }

    @Test func aFeedbackEventReceivedBeforeFinishPasses() async {
      let store = TestStore(initialState: Parity.State(), system: Parity())
      await store.send(.increment) { $0.count = 1 }
      await store.receive(.setParity("odd")) { $0.parity = "odd" }
      await store.finish()
    }
  }
}
