import CasePathsCore
import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

/// A stack of screens that each present a sheet.
struct Flow: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Presenter.State>()
  }

  enum Action: Equatable, Sendable {
    case path(StackActionOf<Presenter>)
    case push

    static let pathCase = AnyCasePath<Action, StackActionOf<Presenter>>(embed: Action.path) {
      if case .path(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .push = action { state.path.append(Presenter.State()) }
      return .none
    }
    .forEach(\.path, action: Action.pathCase) { Presenter(clock: clock) }
  }
}

extension Engine {
  /// Presentations inside stack elements: the innermost presenter owns the dismissal, and a
  /// popped element takes its presented children's effects with it.
  @MainActor
  @Suite struct NestedNavigationTests {
    @Test func poppingAnElementCancelsTheEffectsOfTheSheetItPresents() async {
      let clock = TestClock()
      let store = Store(initialState: Flow.State()) { Flow(clock: clock) }
      store.send(.push)
      let id = store.path.ids[0]
      store.send(.path(.element(id: id, action: .showSheet)))
      let later = store.send(.path(.element(id: id, action: .sheet(.presented(.tickLater)))))
      store.send(.path(.popFrom(id: id)))
      // A late tick would be reported as an action for a gone id.
      await clock.run()
      await later.finish()
      #expect(store.path.isEmpty)
      #expect(store.runningEffectCount == 0)
    }

    @Test func aSheetInAnElementDismissesItselfNotTheElement() async {
      let store = TestStore(initialState: Flow.State()) { Flow(clock: TestClock()) }
      await store.send(.push) { $0.path.append(Presenter.State()) }
      let id = store.state.path.ids[0]
      await store.send(.path(.element(id: id, action: .showSheet))) {
        $0.path[id: id]?.sheet = Ticker.State()
      }
      await store.send(.path(.element(id: id, action: .sheet(.presented(.closeTapped)))))
      await store.receive(.path(.element(id: id, action: .sheet(.dismiss)))) {
        $0.path[id: id]?.sheet = nil
      }
      #expect(store.state.path.count == 1)
    }
  }
}
