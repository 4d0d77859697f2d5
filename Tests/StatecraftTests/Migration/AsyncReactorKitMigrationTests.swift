import StatecraftTesting
import Testing

@testable import Statecraft

/// The AsyncReactorKit migration guide's counter, converted and run.
extension Engine {
  @MainActor
  @Suite struct AsyncReactorKitMigrationTests {
    // docs:begin MigratingFromAsyncReactorKit
    final class CounterReactor: Reactor {
      enum Action: Sendable { case increment, decrement, reset }
      enum Mutation: Equatable, Sendable { case setCount(Int) }
      struct State: Equatable, Sendable {
        var count = 0
        @Pulse var message: String?
      }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .increment: .send(.setCount(state.count + 1))
        case .decrement: .send(.setCount(state.count - 1))
        case .reset: .send(.setCount(0))
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setCount(let count):
          state.count = count
          state.message = "Count updated to \(count)"
        }
      }
    }

    /// A `UIViewController` in an app; its outlets are plain properties here so that the tests
    /// run it on Linux.
    final class CounterViewController: StateSubscriber {
      let store = Store(initialState: CounterReactor.State(), reactor: CounterReactor())
      var countLabelText = ""
      var alerts: [String] = []

      func viewDidLoad() {
        store.subscribe(self)
      }

      func incrementTapped() { store.send(.increment) }
      func decrementTapped() { store.send(.decrement) }

      func state(_ state: CounterReactor.State) {
        countLabelText = "\(state.count)"
        state.$message.updated { [weak self] message in
          guard let message else { return }
          self?.alerts.append(message)
        }
      }
    }
    // docs:end

    @Test func theViewControllerRendersTheCountAndAlertsOnEveryUpdate() {
      let controller = CounterViewController()
      controller.viewDidLoad()
      #expect(controller.countLabelText == "0")
      #expect(controller.alerts.isEmpty)
      controller.incrementTapped()
      controller.decrementTapped()
      #expect(controller.countLabelText == "0")
      #expect(controller.alerts == ["Count updated to 1", "Count updated to 0"])
    }

    @Test func theReactorCountsUnderTheTestStore() async {
      // docs:begin MigratingFromAsyncReactorKit
      let store = TestStore(initialState: CounterReactor.State(), reactor: CounterReactor())
      await store.send(.increment) {
        $0.count = 1
        $0.message = "Count updated to 1"
      }
      await store.send(.reset) {
        $0.count = 0
        $0.message = "Count updated to 0"
      }
      await store.finish()

      let stub = Stub(reactor: CounterReactor(), initialState: .init())
      #expect(await stub.test(input: .increment).count == 1)
      // docs:end
    }
  }
}
