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

extension Engine.LoadableTests {
  final class ProfileReactor: Reactor {
    enum Action: Sendable { case refresh, cancel }
    enum Mutation: Sendable { case name(LoadableUpdate<String>) }
    struct State: Equatable, Sendable { var name: Loadable<String> = .idle }
    enum CancelID { case load }

    let clock: TestClock<Duration>
    init(clock: TestClock<Duration>) { self.clock = clock }

    func mutate(state: State, action: Action) -> Effect<Mutation> {
      switch action {
      case .refresh:
        return .load(id: CancelID.load) { [clock] in
          try await clock.sleep(for: .seconds(1))
          return "Blob"
        } update: {
          .name($0)
        }
      case .cancel:
        return .cancelLoad(id: CancelID.load) { .name($0) }
      }
    }

    func reduce(state: inout State, mutation: Mutation) {
      switch mutation {
      case .name(let update): state.name.apply(update)
      }
    }
  }

  @Test func aReactorDrivesALoadThroughMutations() async {
    let clock = TestClock()
    let store = Store(initialState: ProfileReactor.State(), reactor: ProfileReactor(clock: clock))
    let task = store.send(.refresh)
    #expect(store.name == .loading(previous: nil))
    await clock.advance(by: .seconds(1))
    await task.finish()
    #expect(store.name == .success("Blob"))
    let again = store.send(.refresh)
    store.send(.cancel)
    #expect(store.name == .idle)
    await again.finish()
    #expect(store.runningEffectCount == 0)
  }
}
