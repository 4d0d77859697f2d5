import StatecraftTesting
import Testing

@testable import Statecraft

/// The GoodReactor migration guide's counter and coordinator, converted and run.
extension Engine {
  @MainActor
  @Suite struct GoodReactorMigrationTests {
    // docs:begin MigratingFromGoodReactor
    final class CounterViewModel: Reactor {
      enum CounterMode: Sendable { case increase, decrease }
      enum Action: Sendable {
        case updateCounterValue(CounterMode)
        case goToAbout
      }
      enum Mutation: Equatable, Sendable { case counterValueUpdated(Int) }
      struct State: Equatable { var counterValue = 0 }
      enum Route: Equatable, Sendable { case about }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .updateCounterValue(.increase): .send(.counterValueUpdated(state.counterValue + 1))
        case .updateCounterValue(.decrease): .send(.counterValueUpdated(state.counterValue - 1))
        case .goToAbout: .none
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .counterValueUpdated(let value): state.counterValue = value
        }
      }

      func route(for action: Action) -> Route? {
        if case .goToAbout = action { .about } else { nil }
      }
    }

    /// A `UIViewController` in an app, where `StoreObserving` comes with UIKit; the label is a
    /// plain property here so that the tests run it on Linux.
    @MainActor
    final class CounterViewController: StoreObserving {
      let viewModel: ReactorStoreOf<CounterViewModel>
      var counterValueLabelText = ""

      init(viewModel: ReactorStoreOf<CounterViewModel>) {
        self.viewModel = viewModel
      }

      func viewDidLoad() {
        observe(viewModel) { controller, viewModel in
          controller.counterValueLabelText = String(viewModel.counterValue)
        }
      }

      func increaseTapped() { viewModel.send(.updateCounterValue(.increase)) }
      func aboutTapped() { viewModel.send(.goToAbout) }
    }

    @MainActor
    final class AppCoordinator {
      var shown: [CounterViewModel.Route] = []

      func start(routes: AsyncStream<CounterViewModel.Route>) async {
        for await route in routes {
          shown.append(route)  // push the about screen
        }
      }
    }
    // docs:end

    @Test func theViewControllerCountsAndTheCoordinatorNavigates() async {
      var viewModel: ReactorStoreOf<CounterViewModel>? = Store(
        initialState: CounterViewModel.State(), reactor: CounterViewModel())
      let coordinator = AppCoordinator()
      let routes = viewModel!.routes(CounterViewModel.Route.self)
      let coordinating = Task { await coordinator.start(routes: routes) }
      var controller: CounterViewController? = CounterViewController(viewModel: viewModel!)
      controller?.viewDidLoad()
      controller?.increaseTapped()
      controller?.increaseTapped()
      #expect(controller?.counterValueLabelText == "2")
      controller?.aboutTapped()
      // The coordinator's loop ends when the view model is released.
      controller = nil
      viewModel = nil
      await coordinating.value
      #expect(coordinator.shown == [.about])
    }

    @Test func theViewModelUnderTheTestStore() async {
      // docs:begin MigratingFromGoodReactor
      let store = TestStore(initialState: CounterViewModel.State(), reactor: CounterViewModel())
      await store.send(.updateCounterValue(.increase)) { $0.counterValue = 1 }
      await store.send(.updateCounterValue(.decrease)) { $0.counterValue = 0 }
      await store.finish()
      // docs:end
    }
  }
}
