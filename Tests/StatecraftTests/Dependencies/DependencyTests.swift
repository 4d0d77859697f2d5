import CasePaths
import Clocks
import ConcurrencyExtras
import Foundation
import StatecraftTesting
import Testing

@testable import Statecraft

// MARK: - Dependencies of these tests

/// A number a feature reads: 0 live and in tests unless a test sets it.
private enum NumberKey: DependencyKey {
  static let liveValue = 0
  static let testValue = 0
}

/// A client with a live value only: using it in a test without setting it is a failure that
/// names it.
private struct FactClient: DependencyKey, Sendable {
  var fetch: @Sendable (Int) async -> String
  static let liveValue = FactClient { "\($0) is a live fact" }
}

extension DependencyValues {
  fileprivate var number: Int {
    get { self[NumberKey.self] }
    set { self[NumberKey.self] = newValue }
  }
  fileprivate var factClient: FactClient {
    get { self[FactClient.self] }
    set { self[FactClient.self] = newValue }
  }
}

// MARK: - Features

/// Reads `number` while reducing, in an effect at once, and in an effect after a sleep.
private struct Reader: Reducer {
  struct State: Equatable, Sendable {
    var reduced = -1
    var effect = -1
    var later = -1
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case read
    case readLater
    case readInConcatenation
    case effectRead(Int)
    case laterRead(Int)
  }

  @Dependency(\.number) var number
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .read:
      state.reduced = number
      return .run { send in await send(.effectRead(number)) }
    case .readLater:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.laterRead(number))
      }
    case .readInConcatenation:
      // NB: the second step starts only once the first has finished, after the reducer
      // returned.
      return .concatenate(
        .run { _ in try await clock.sleep(for: .seconds(1)) },
        .run { send in await send(.laterRead(number)) }
      )
    case .effectRead(let value):
      state.effect = value
      return .none
    case .laterRead(let value):
      state.later = value
      return .none
    }
  }
}

/// A parent with two readers, the second of which overrides `number` for itself.
private struct Parent: Reducer {
  struct State: Equatable, Sendable {
    var parent = -1
    var first = Reader.State()
    var second = Reader.State()
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case first(Reader.Action)
    case second(Reader.Action)
    case readParent
  }

  @Dependency(\.number) var number

  var body: some Reducer<State, Action> {
    Scope(state: \.first, action: \.first) { Reader() }
    Scope(state: \.second, action: \.second) {
      Reader()
        .dependency(\.number, 2)
    }
    Reduce { state, action in
      if case .readParent = action { state.parent = number }
      return .none
    }
  }
}

/// A sheet that closes itself through `@Dependency(\.dismiss)`.
private struct Sheet: Reducer {
  enum Action: Equatable, Sendable { case close }
  @Dependency(\.dismiss) var dismiss
  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    .run { _ in await dismiss() }
  }
}

/// Presents a ``Sheet``.
private struct Host: Reducer {
  struct State: Equatable, Sendable {
    @Presents var sheet: Int?
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case sheet(PresentationAction<Sheet.Action>)
    case show
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .show = action { state.sheet = 0 }
      return .none
    }
    .ifLet(\.$sheet, action: \.sheet) { Sheet() }
  }
}

// MARK: - Tests

extension Engine {
  @MainActor
  @Suite struct DependencyTests {
    @Test func aStoreReducesWithTheValuesInForceWhenItWasCreated() async {
      let store = withDependencies {
        $0.number = 7
        $0.continuousClock = ImmediateClock()
      } operation: {
        Store(initialState: Reader.State()) { Reader() }
      }
      // NB: sent outside `withDependencies`: the store, not the sender, decides.
      await store.send(.read).finish()
      #expect(store.reduced == 7)
      #expect(store.effect == 7)
      await store.send(.readLater).finish()
      #expect(store.later == 7)
    }

    @Test func aStoreMadeWithTheDefaultsIgnoresTheSendersOverrides() async {
      let store = withDependencies {
        $0.continuousClock = ImmediateClock()
      } operation: {
        Store(initialState: Reader.State()) { Reader() }
      }
      // NB: the sender's values differ from the store's only in `number`: the store's win.
      await withDependencies {
        $0.number = 9
      } operation: {
        await store.send(.read).finish()
      }
      #expect(store.reduced == 0)
      #expect(store.effect == 0)
      // And the same store, sent to where its own values are in force, reads them too.
      await store.send(.read).finish()
      #expect(store.reduced == 0)
    }

    @Test func storeWithDependenciesBuildsTheStateAndReducerWithThem() {
      struct Stamped: Reducer {
        struct State: Equatable {
          var number: Int
          init() {
            @Dependency(\.number) var number
            self.number = number
          }
        }
        let initial: Int
        func reduce(into state: inout State, action: Void) -> Effect<Void> {
          state.number += initial
          return .none
        }
      }
      @Dependency(\.number) var number
      let store = Store(initialState: Stamped.State()) {
        Stamped(initial: number)
      } withDependencies: {
        $0.number = 21
      }
      #expect(store.number == 21)
      store.send(())
      #expect(store.number == 42)
    }

    @Test func testStoreOverridesReachEffectsThatStartLater() async {
      let clock = TestClock()
      let store = TestStore(initialState: Reader.State()) {
        Reader()
      } withDependencies: {
        $0.number = 5
        $0.continuousClock = clock
      }
      await store.send(.read) { $0.reduced = 5 }
      await store.receive(.effectRead(5)) { $0.effect = 5 }
      await store.send(.readLater)
      await store.send(.readInConcatenation)
      await clock.advance(by: .seconds(1))
      await store.receive(.laterRead(5)) { $0.later = 5 }
      await store.receive(.laterRead(5))
    }

    @Test func childrenInheritTheStoreValuesAndOverrideThemForTheirSubtree() async {
      let clock = TestClock()
      let store = TestStore(initialState: Parent.State()) {
        Parent()
      } withDependencies: {
        $0.number = 1
        $0.continuousClock = clock
      }
      await store.send(.readParent) { $0.parent = 1 }
      await store.send(.first(.read)) { $0.first.reduced = 1 }
      await store.receive(.first(.effectRead(1))) { $0.first.effect = 1 }
      await store.send(.second(.read)) { $0.second.reduced = 2 }
      await store.receive(.second(.effectRead(2))) { $0.second.effect = 2 }
      // NB: an overridden child's `.run` that starts after the reducer returned (a
      // concatenation's second step) still runs with the child's values.
      await store.send(.second(.readInConcatenation))
      await store.send(.second(.readLater))
      await clock.advance(by: .seconds(1))
      await store.receive(.second(.laterRead(2))) { $0.second.later = 2 }
      await store.receive(.second(.laterRead(2)))
    }

    @Test func testStoreDependenciesChangedMidwayApplyToLaterActions() async {
      let store = TestStore(initialState: Reader.State()) {
        Reader()
      } withDependencies: {
        $0.number = 1
      }
      await store.send(.read) { $0.reduced = 1 }
      await store.receive(.effectRead(1)) { $0.effect = 1 }
      store.dependencies.number = 2
      await store.send(.read) { $0.reduced = 2 }
      await store.receive(.effectRead(2)) { $0.effect = 2 }
    }

    @Test func anAssertionReadsTheStoreValues() async {
      let store = TestStore(initialState: Reader.State()) {
        Reader()
      } withDependencies: {
        $0.number = 9
      }
      await store.send(.read) {
        @Dependency(\.number) var number
        $0.reduced = number
      }
      await store.receive(.effectRead(9)) {
        @Dependency(\.number) var number
        $0.effect = number
      }
    }

    @Test func anUnimplementedDependencyIsReportedWithItsName() async {
      struct Facts: Reducer {
        @Dependency(\.factClient) var factClient
        func reduce(into state: inout String, action: Void) -> Effect<Void> {
          state = "asked"
          return .run { _ in _ = await factClient.fetch(1) }
        }
      }
      let store = TestStore(initialState: "") { Facts() }
      await withKnownIssue {
        await store.send(()) { $0 = "asked" }
        await store.finish()
      } matching: {
        $0.description.contains(#"@Dependency(\.factClient) has no test implementation"#)
      }
    }

    @Test func aReactorReadsDependenciesInMutateReduceAndItsWork() async {
      final class NumberReactor: Reactor {
        enum Action: Equatable, Sendable { case load }
        enum Mutation: Equatable, Sendable { case loaded(Int), loadedLater(Int) }
        struct State: Equatable, Sendable {
          var now = -1
          var later = -1
        }
        @Dependency(\.number) var number

        func mutate(state: State, action: Action) -> Effect<Mutation> {
          .merge(
            .send(.loaded(number)),
            .run { send in
              // NB: read in the effect's task, which runs with the store's values.
              @Dependency(\.number) var number
              @Dependency(\.continuousClock) var clock
              try await clock.sleep(for: .seconds(1))
              await send(.loadedLater(number))
            })
        }

        func reduce(state: inout State, mutation: Mutation) {
          switch mutation {
          case .loaded(let value): state.now = value
          case .loadedLater(let value): state.later = value
          }
        }
      }
      let clock = TestClock()
      let store = TestStore(initialState: NumberReactor.State(), reactor: NumberReactor()) {
        $0.number = 3
        $0.continuousClock = clock
      }
      await store.send(.load) { $0.now = 3 }
      await clock.advance(by: .seconds(1))
      await store.receive(.loadedLater(3)) { $0.later = 3 }
    }

    @Test func aFeedbackSystemReadsDependenciesInItsFeedbacks() async {
      struct Counting: FeedbackSystem, Sendable {
        struct State: Equatable, Sendable {
          var requested: Int?
          var loaded = -1
        }
        enum Event: Equatable, Sendable { case request(Int), loaded(Int) }

        @Dependency(\.number) var number

        func reduce(into state: inout State, event: Event) {
          switch event {
          case .request(let value): state.requested = value
          case .loaded(let value):
            state.requested = nil
            state.loaded = value
          }
        }

        var feedbacks: [Feedback<State, Event>] {
          [
            .react(to: \.requested) { request, send in
              await send(.loaded(request + number))
            }
          ]
        }
      }
      let store = TestStore(initialState: Counting.State(), system: Counting()) {
        $0.number = 100
      }
      await store.send(.request(1)) { $0.requested = 1 }
      await store.receive(.loaded(101)) {
        $0.requested = nil
        $0.loaded = 101
      }
      await store.finish()
    }

    @Test func dismissIsADependency() async {
      let store = TestStore(initialState: Host.State()) { Host() }
      await store.send(.show) { $0.sheet = 0 }
      await store.send(.sheet(.presented(.close)))
      await store.receive(.sheet(.dismiss)) { $0.sheet = nil }
    }
  }
}
