import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

/// The ReactorKit migration guide's counter, converted and run.
extension Engine {
  @MainActor
  @Suite struct ReactorKitMigrationTests {
    // docs:begin MigratingFromReactorKit
    final class CounterViewReactor: Reactor {
      enum Action: Sendable { case increase, decrease }
      enum Mutation: Equatable, Sendable { case increaseValue, decreaseValue, setLoading(Bool) }
      struct State: Equatable {
        var value = 0
        var isLoading = false
        @Pulse var alertMessage: String?
      }

      let clock: any Clock<Duration>

      init(clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
      }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        let change: Mutation = action == .increase ? .increaseValue : .decreaseValue
        return .concatenate(
          .send(.setLoading(true)),
          .run { [clock] send in
            try await clock.sleep(for: .milliseconds(500))
            await send(change)
          },
          .send(.setLoading(false))
        )
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .increaseValue:
          state.value += 1
          if state.value.isMultiple(of: 10) { state.alertMessage = "\(state.value)!" }
        case .decreaseValue:
          state.value -= 1
        case .setLoading(let isLoading):
          state.isLoading = isLoading
        }
      }
    }

    /// A `UIViewController` in an app, where `StoreObserving` comes with UIKit; the labels are
    /// plain properties here so that the tests run it on Linux.
    @MainActor
    final class CounterViewController: StoreObserving {
      let store: ReactorStoreOf<CounterViewReactor>
      var valueLabelText = ""
      var isAnimating = false
      var alerts: [String] = []
      private var alertTask: Task<Void, Never>?

      init(store: ReactorStoreOf<CounterViewReactor>) {
        self.store = store
      }

      func viewDidLoad() {
        observe(store) { controller, store in
          controller.valueLabelText = "\(store.value)"
          controller.isAnimating = store.isLoading
        }
        let alertMessages = store.pulses(\.$alertMessage)
        alertTask = Task { [weak self] in
          for await message in alertMessages {
            if let message { self?.alerts.append(message) }
          }
        }
      }

      func increaseButtonTapped() {
        store.send(.increase)
      }
    }
    // docs:end

    @Test func increasingShowsTheSpinnerThenTheNewValue() async {
      let clock = TestClock()
      // docs:begin MigratingFromReactorKit
      let store = TestStore(
        initialState: CounterViewReactor.State(), reactor: CounterViewReactor(clock: clock))
      await store.send(.increase) { $0.isLoading = true }
      await clock.advance(by: .milliseconds(500))
      await store.receive(.increaseValue) { $0.value = 1 }
      await store.receive(.setLoading(false)) { $0.isLoading = false }
      await store.finish()
      // docs:end
    }

    @Test func theViewControllerRendersValueAndSpinner() async {
      let clock = TestClock()
      let store = Store(
        initialState: CounterViewReactor.State(), reactor: CounterViewReactor(clock: clock))
      let controller = CounterViewController(store: store)
      controller.viewDidLoad()
      #expect(controller.valueLabelText == "0")
      controller.increaseButtonTapped()
      #expect(controller.isAnimating)
      await clock.advance(by: .milliseconds(500))
      await store.wait(while: { $0.isLoading })
      #expect(controller.valueLabelText == "1")
      #expect(!controller.isAnimating)
    }

    @Test func aPulseAlertsOncePerAssignment() async {
      let store = Store(
        initialState: CounterViewReactor.State(value: 9),
        reactor: CounterViewReactor(clock: ImmediateClock()))
      var pulses = store.pulses(\.$alertMessage).makeAsyncIterator()
      await store.send(.increase).finish()
      #expect(await pulses.next() == .some("10!"))
    }
  }
}
