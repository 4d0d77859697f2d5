import CasePathsCore
import Clocks
import ConcurrencyExtras
import StatecraftCombine
import StatecraftTesting
import Testing

@testable import Statecraft

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

extension Engine {
  /// The Composable Architecture's `TestStoreTests`, ported to Statecraft's spelling.
  ///
  /// The `@Dependency` tests (`testOverrideDependencies…`, `testDependenciesEarlyBinding`,
  /// `testPrepareDependenciesCalledOnce`) are ported in TCADependencyTests.swift. Not ported:
  /// `dismiss` of a test store's root (`testDismissCancelsEffects`, `testDismissedStoreSend`);
  /// `@Shared` state (`testAssert_StreamDependencyOnReducerWithSharedState…`, issue 18);
  /// `BindingReducer` with `@ObservableState` (`testBindingTestStore_WhenStateAndActionHaveSameName`,
  /// a macro).
  @MainActor
  @Suite struct TCATestStoreTests {
    @Test func effectConcatenation() async {
      enum Action: Equatable, Sendable { case a, b1, b2, b3, c1, c2, c3, d }
      let clock = TestClock()
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          switch action {
          case .a:
            return .merge(
              .run { send in
                try await clock.sleep(for: .seconds(1))
                await send(.b1)
                await send(.c1)
              },
              .run { _ in try await Task.never() }.cancellable(id: 1)
            )
          case .b1: return .concatenate(.send(.b2), .send(.b3))
          case .c1: return .concatenate(.send(.c2), .send(.c3))
          case .b2, .b3, .c2, .c3: return .none
          case .d: return .cancel(id: 1)
          }
        }
      }
      await store.send(.a)
      await clock.advance(by: .seconds(1))
      await store.receive(.b1)
      await store.receive(.b2)
      await store.receive(.b3)
      await store.receive(.c1)
      await store.receive(.c2)
      await store.receive(.c3)
      await store.send(.d)
    }

    @Test func async() async {
      enum Action: Equatable, Sendable { case tap, response(Int) }
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .tap: return .run { send in await send(.response(42)) }
          case .response(let number):
            state = number
            return .none
          }
        }
      }
      await store.send(.tap)
      await store.receive(.response(42)) { $0 = 42 }
    }

    struct Changing: Reducer {
      struct State: Equatable, Sendable {
        var count = 0
        var isChanging = false
      }
      enum Action: Equatable, Sendable { case increment, changed(from: Int, to: Int) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
          state.isChanging = true
          return .send(.changed(from: state.count, to: state.count + 1))
        case .changed(let from, let to):
          state.isChanging = false
          if state.count == from { state.count = to }
          return .none
        }
      }
    }

    @Test func expectedStateEquality() async {
      let store = TestStore(initialState: Changing.State()) { Changing() }
      await store.send(.increment) { $0.isChanging = true }
      await store.receive(.changed(from: 0, to: 1)) {
        $0.isChanging = false
        $0.count = 1
      }
      await expectOneFailure(containing: ["does not match the assertion"]) {
        await store.send(.increment) { $0.isChanging = false }
      }
      await expectOneFailure(containing: ["does not match the assertion"]) {
        await store.receive(.changed(from: 1, to: 2)) {
          $0.isChanging = true
          $0.count = 1100
        }
      }
    }

    @Test func expectedStateEqualityMustModify() async {
      enum Action: Equatable, Sendable { case noop, finished }
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          switch action {
          case .noop: return .send(.finished)
          case .finished: return .none
          }
        }
      }
      await store.send(.noop)
      await store.receive(.finished)
      await expectOneFailure(containing: ["Expected state to change, but no change occurred"]) {
        await store.send(.noop) { $0 = 0 }
      }
      await expectOneFailure(containing: ["Expected state to change, but no change occurred"]) {
        await store.receive(.finished) { $0 = 0 }
      }
    }

    @Test func receiveActionMatchingPredicate() async {
      enum Action: Equatable, Sendable { case noop, finished }
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          switch action {
          case .noop: return .send(.finished)
          case .finished: return .none
          }
        }
      }
      var predicateCalled = false
      await store.send(.noop)
      await store.receive(where: { action in
        predicateCalled = true
        return action == .finished
      })
      #expect(predicateCalled)

      await store.send(.noop)
      await expectOneFailure(containing: ["Received unexpected action"]) {
        await store.receive(.noop)
      }
      await store.send(.noop)
      await expectOneFailure(containing: ["Received unexpected action"]) {
        await store.receive(where: { $0 == .noop })
      }
    }

    @Test func stateAccess() async {
      enum Action: Equatable, Sendable { case a, b, c, d }
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { count, action in
          switch action {
          case .a:
            count += 1
            return .merge(.send(.b), .send(.c), .send(.d))
          case .b, .c, .d:
            count += 1
            return .none
          }
        }
      }
      await store.send(.a) {
        $0 = 1
        #expect(store.state == 0)
      }
      #expect(store.state == 1)
      await store.receive(.b) {
        $0 = 2
        #expect(store.state == 1)
      }
      #expect(store.state == 2)
      await store.receive(.c) {
        $0 = 3
        #expect(store.state == 2)
      }
      #expect(store.state == 3)
      await store.receive(.d) {
        $0 = 4
        #expect(store.state == 3)
      }
      #expect(store.state == 4)
    }

    @Test func effectEmitAfterSkipInFlightEffects() async {
      enum Action: Equatable, Sendable { case tap, response }
      let clock = TestClock()
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .tap:
            return .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(.response)
            }
          case .response:
            state = 42
            return .none
          }
        }
      }
      await store.send(.tap)
      await store.skipInFlightEffects()
      await clock.advance(by: .seconds(1))
      await store.receive(.response) { $0 = 42 }
    }

    @Test func assertNonExhaustiveTestStore() async {
      let store = TestStore(initialState: 0) { EmptyReducer<Int, Int>() }
      store.exhaustivity = .off
      store.assert { $0 = 0 }
    }

    @Test func assertNonExhaustiveTestStoreFailure() async {
      let store = TestStore(initialState: 0) { EmptyReducer<Int, Int>() }
      store.exhaustivity = .off
      await expectOneFailure(containing: ["does not match the assertion"]) {
        store.assert { $0 = 1 }
      }
    }

    @Test func subscribeReceivePublisher() async {
      // NB: TCA's version hops through a Combine test scheduler; OpenCombine has none, and
      // Statecraft subscribes to a publisher effect synchronously, so the subject's value
      // arrives without one.
      struct State: Equatable, Sendable { var count = 0 }
      enum Action: Equatable, Sendable { case increment, start }
      let subject = UncheckedSendable(PassthroughSubject<Void, Never>())
      let store = TestStore(initialState: State()) {
        Reduce<State, Action> { state, action in
          switch action {
          case .start: return .publisher(subject.value.map { Action.increment })
          case .increment:
            state.count += 1
            return .none
          }
        }
      }
      let task = await store.send(.start)
      subject.value.send()
      await store.receive(.increment) { $0.count = 1 }
      task.cancel()
    }

    @Test func mainSerialExecutorAutoAssignsAndResetsFalse() async {
      uncheckedUseMainSerialExecutor = false
      defer { uncheckedUseMainSerialExecutor = true }
      var store: TestStore<Int, Int, Int>? = TestStore(initialState: 0) {
        EmptyReducer<Int, Int>()
      }
      #expect(uncheckedUseMainSerialExecutor)
      store = nil
      #expect(!uncheckedUseMainSerialExecutor)
      _ = store
    }

    @Test func mainSerialExecutorAutoAssignsAndResetsTrue() async {
      uncheckedUseMainSerialExecutor = true
      var store: TestStore<Int, Int, Int>? = TestStore(initialState: 0) {
        EmptyReducer<Int, Int>()
      }
      #expect(uncheckedUseMainSerialExecutor)
      store = nil
      #expect(uncheckedUseMainSerialExecutor)
      _ = store
    }

    // MARK: - Case key paths

    enum Action: Equatable, Sendable, CasePathable {
      case tap
      case delegate(Delegate)
      case view(View)

      enum Delegate: Equatable, Sendable, CasePathable {
        case success(Int)
        struct AllCasePaths {
          var success: AnyCasePath<Delegate, Int> {
            AnyCasePath(embed: Delegate.success) {
              if case .success(let value) = $0 { value } else { nil }
            }
          }
        }
        static var allCasePaths: AllCasePaths { AllCasePaths() }
      }
      enum View: Equatable, Sendable, CasePathable {
        case tap
        case delete([Int])
        struct AllCasePaths {
          var tap: AnyCasePath<View, Void> {
            AnyCasePath(embed: { .tap }, extract: { if case .tap = $0 { () } else { nil } })
          }
          var delete: AnyCasePath<View, [Int]> {
            AnyCasePath(embed: View.delete) {
              if case .delete(let value) = $0 { value } else { nil }
            }
          }
        }
        static var allCasePaths: AllCasePaths { AllCasePaths() }
      }
      struct AllCasePaths {
        var tap: AnyCasePath<Action, Void> {
          AnyCasePath(embed: { .tap }, extract: { if case .tap = $0 { () } else { nil } })
        }
        var delegate: AnyCasePath<Action, Delegate> {
          AnyCasePath(embed: Action.delegate) {
            if case .delegate(let value) = $0 { value } else { nil }
          }
        }
        var view: AnyCasePath<Action, View> {
          AnyCasePath(embed: Action.view) {
            if case .view(let value) = $0 { value } else { nil }
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    static func caseKeyPathFeature() -> Reduce<Int, Action> {
      Reduce { state, action in
        switch action {
        case .tap:
          return .send(.delegate(.success(42)))
        case .delegate:
          return .none
        case .view(.tap):
          state += 1
          return .send(.delegate(.success(42 * 42)))
        case .view(.delete(let indices)):
          let sum = indices.reduce(0, +)
          if sum == 42 { state += 1 }
          return .send(.delegate(.success(sum)))
        }
      }
    }

    @Test func receiveCaseKeyPathWithValue() async {
      let store = TestStore(initialState: 0) { Self.caseKeyPathFeature() }
      await store.send(.tap)
      await store.receive(\.delegate.success, 42)
      await store.send(.tap)
      await expectOneFailure(containing: ["Received unexpected action", "success(42)"]) {
        await store.receive(\.delegate.success, 43)
      }
    }

    @Test func sendCaseKeyPath() async {
      let store = TestStore(initialState: 0) { Self.caseKeyPathFeature() }
      await store.send(\.tap)
      await store.receive(\.delegate.success, 42)
      await store.send(\.view.tap) { $0 = 1 }
      await store.receive(\.delegate.success, 42 * 42)
      await store.send(\.view.delete, [0])
      await store.receive(\.delegate.success, 0)
      await store.send(\.view.delete, [19, 23]) { $0 = 2 }
      await store.receive(\.delegate.success, 42)
    }
  }
}
