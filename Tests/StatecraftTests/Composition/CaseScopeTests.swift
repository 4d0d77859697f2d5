import Clocks
import ConcurrencyExtras
import Testing

@testable import Statecraft

/// A feature whose state is an enum: logged in (a `Pinger` with an id) or logged out.
struct Session: Reducer {
  enum State: Equatable, Sendable {
    case loggedIn(Pinger.State)
    case loggedOut

    static let loggedInCase = casePath(State.loggedIn) {
      if case .loggedIn(let state) = $0 { state } else { nil }
    }
  }

  enum Action: Equatable, Sendable {
    case loggedIn(Pinger.Action)
    case logIn(Int)
    case logOut

    static let loggedInCase = casePath(Action.loggedIn) {
      if case .loggedIn(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .logIn(let id): state = .loggedIn(Pinger.State(id: id))
      case .logOut: state = .loggedOut
      case .loggedIn: break
      }
      return .none
    }
    .ifCaseLet(State.loggedInCase, action: Action.loggedInCase) { Pinger(clock: clock) }
  }
}

extension Engine {
  @MainActor
  @Suite struct CaseScopeTests {
    @Test func aScopeOverACaseRunsTheChildWhileTheStateIsInThatCase() {
      let store = Store(initialState: Session.State.loggedIn(Pinger.State(id: 1))) {
        Scope(state: Session.State.loggedInCase, action: Session.Action.loggedInCase) {
          Pinger(clock: TestClock())
        }
      }
      store.send(.loggedIn(.ping))
      #expect(store.state == .loggedIn(Pinger.State(id: 1, pongs: 1)))
    }

    @Test func ifCaseLetRunsTheChildBeforeTheParent() {
      let seen = LockIsolated<[Session.State]>([])
      let store = Store(initialState: Session.State.loggedIn(Pinger.State(id: 1))) {
        Reduce<Session.State, Session.Action> { state, _ in
          let current = state
          seen.withValue { $0.append(current) }
          return .none
        }
        .ifCaseLet(Session.State.loggedInCase, action: Session.Action.loggedInCase) {
          Pinger(clock: TestClock())
        }
      }
      store.send(.loggedIn(.pong))
      #expect(seen.value == [.loggedIn(Pinger.State(id: 1, pongs: 1))])
    }

    @Test func leavingTheCaseCancelsTheChildsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Session.State.loggedIn(Pinger.State(id: 1))) {
        Session(clock: clock)
      }
      let load = store.send(.loggedIn(.load))
      store.send(.logOut)
      await clock.run()
      await load.finish()
      #expect(store.state == .loggedOut)
      #expect(store.runningEffectCount == 0)
    }

    @Test func anotherIdentityInTheSameCaseCancelsTheChildsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Session.State.loggedIn(Pinger.State(id: 1))) {
        Session(clock: clock)
      }
      let load = store.send(.loggedIn(.load))
      store.send(.logIn(2))
      await clock.run()
      await load.finish()
      #expect(store.state == .loggedIn(Pinger.State(id: 2)))
    }

    @Test func theSameCaseAndIdentityKeepsTheChildsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Session.State.loggedIn(Pinger.State(id: 1))) {
        Session(clock: clock)
      }
      let load = store.send(.loggedIn(.load))
      store.send(.logIn(1))
      await clock.advance(by: .seconds(1))
      await load.finish()
      #expect(store.state == .loggedIn(Pinger.State(id: 1, loaded: 1)))
    }

    @Test func aChildActionInAnotherCaseIsReported() async {
      let store = Store(initialState: Session.State.loggedOut) { Session(clock: TestClock()) }
      await expectOneFailure(containing: ["in another case", "Pinger.State"]) {
        store.send(.loggedIn(.ping))
      }
      #expect(store.state == .loggedOut)
    }
  }
}
