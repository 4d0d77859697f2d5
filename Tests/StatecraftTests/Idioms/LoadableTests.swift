import Clocks
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct LoadableTests {
    struct Profile: Reducer {
      struct State: Equatable, Sendable {
        var name: Loadable<String> = .idle
      }
      enum Action: Sendable {
        case load
        case refreshSilently
        case loaded(Result<String, any Error>)
        case cancel
      }
      enum CancelID { case load }
      struct Offline: Error {}

      let clock: TestClock<Duration>
      let fail: Bool

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load, .refreshSilently:
          return .load(&state.name, id: CancelID.load, silent: action.isSilent) {
            [clock, fail] in
            try await clock.sleep(for: .seconds(1))
            if fail { throw Offline() }
            return "Blob"
          } completion: {
            .loaded($0)
          }
        case .loaded(let result):
          state.name.finish(with: result)
          return .none
        case .cancel:
          return .cancelLoad(&state.name, id: CancelID.load)
        }
      }
    }

    @Test func aLoadGoesFromIdleToLoadingToSuccess() async {
      let clock = TestClock()
      let store = Store(initialState: Profile.State()) { Profile(clock: clock, fail: false) }
      #expect(store.name == .idle)
      let task = store.send(.load)
      #expect(store.name == .loading(previous: nil))
      await clock.advance(by: .seconds(1))
      await task.finish()
      #expect(store.name == .success("Blob"))
      #expect(store.name.value == "Blob")
    }

    @Test func aFailedLoadKeepsThePreviousValue() async {
      let clock = TestClock()
      var initial = Profile.State()
      initial.name = .success("Old")
      let store = Store(initialState: initial) { Profile(clock: clock, fail: true) }
      let task = store.send(.load)
      #expect(store.name.isLoading)
      #expect(store.name.value == "Old")
      await clock.advance(by: .seconds(1))
      await task.finish()
      #expect(store.name.error is Profile.Offline)
      #expect(store.name.value == "Old")
    }

    @Test func cancellingReturnsToIdleAndDeliversNothing() async {
      let clock = TestClock()
      let store = Store(initialState: Profile.State()) { Profile(clock: clock, fail: false) }
      let task = store.send(.load)
      store.send(.cancel)
      #expect(store.name == .idle)
      await task.finish()
      await clock.run()
      #expect(store.name == .idle)
      #expect(store.runningEffectCount == 0)
    }

    @Test func aSilentRefreshKeepsShowingTheValue() async {
      let clock = TestClock()
      var initial = Profile.State()
      initial.name = .success("Old")
      let store = Store(initialState: initial) { Profile(clock: clock, fail: false) }
      let task = store.send(.refreshSilently)
      #expect(store.name == .success("Old"))
      await clock.advance(by: .seconds(1))
      await task.finish()
      #expect(store.name == .success("Blob"))
    }
  }
}

extension Engine.LoadableTests.Profile.Action {
  var isSilent: Bool {
    if case .refreshSilently = self { return true }
    return false
  }
}
