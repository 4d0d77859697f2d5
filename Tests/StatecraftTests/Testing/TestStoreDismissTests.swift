import CasePaths
import ConcurrencyExtras
import Dependencies
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// A feature under a test store that dismisses itself, as a root: the test store records it
  /// (`isDismissed`) and ends the feature's effects, as TCA's does.
  @MainActor
  @Suite struct TestStoreDismissTests {
    struct Closing: Reducer {
      struct State: Equatable, Sendable { var saved = false }
      enum Action: Equatable, Sendable {
        case dismissTapped
        case saveTapped
        case onTask
        case saved
      }
      @Dependency(\.dismiss) var dismiss

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .dismissTapped:
          return .run { _ in await dismiss() }
        case .saveTapped:
          return .run { send in
            await send(.saved)
            await dismiss()
          }
        case .onTask:
          return .run { _ in try await Task.never() }
        case .saved:
          state.saved = true
          return .none
        }
      }
    }

    /// The same feature, holding a `DismissEffect()` value instead of the dependency.
    struct ClosingWithAValue: Reducer {
      typealias State = Closing.State
      typealias Action = Closing.Action
      let dismiss = DismissEffect()

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .dismissTapped: return .run { _ in await dismiss() }
        case .onTask: return .run { _ in try await Task.never() }
        case .saveTapped, .saved: return .none
        }
      }
    }

    @Test func aRootThatDismissesItselfIsRecordedAndItsEffectsEnd() async {
      let store = TestStore(initialState: Closing.State()) { Closing() }
      #expect(!store.isDismissed)
      await store.send(.onTask)
      await store.send(.dismissTapped)
      #expect(store.isDismissed)
      // NB: the store is released here: a running effect would fail the test.
    }

    @Test func aRootHoldingADismissValueIsRecordedToo() async {
      let store = TestStore(initialState: Closing.State()) { ClosingWithAValue() }
      await store.send(.onTask)
      await store.send(.dismissTapped)
      #expect(store.isDismissed)
      await store.finish()
    }

    @Test func actionsSentBeforeTheDismissalAreStillReceived() async {
      let store = TestStore(initialState: Closing.State()) { Closing() }
      await store.send(.saveTapped)
      await store.receive(.saved) { $0.saved = true }
      #expect(store.isDismissed)
    }

    @Test func sendingToADismissedTestStoreFails() async {
      let store = TestStore(initialState: Closing.State()) { Closing() }
      await store.send(.dismissTapped)
      await expectOneFailure(containing: ["Can't send an action to a dismissed test store"]) {
        await store.send(.onTask)
      }
    }

    @Test func aTestsOwnDismissalIsCalledAndTheStoreIsStillDismissed() async {
      let calls = LockIsolated(0)
      let store = TestStore(initialState: Closing.State()) {
        Closing()
      } withDependencies: {
        $0.dismiss = DismissEffect { calls.withValue { $0 += 1 } }
      }
      await store.send(.dismissTapped)
      #expect(calls.value == 1)
      #expect(store.isDismissed)
    }

    @Test func aLiveStoreCallsTheDismissalItsDependenciesHold() async {
      let calls = LockIsolated(0)
      let store = Store(initialState: Closing.State()) {
        Closing()
      } withDependencies: {
        $0.dismiss = DismissEffect { calls.withValue { $0 += 1 } }
      }
      await store.send(.dismissTapped).finish()
      #expect(calls.value == 1)
    }

    @Test func aLiveRootThatDismissesItselfWithNoDismissalIsReported() async {
      let store = Store(initialState: Closing.State()) { Closing() }
      await expectOneFailure(containing: ["is not presented", "@Dependency(\\.dismiss)"]) {
        await store.send(.dismissTapped).finish()
      }
    }

    @Test func aPresentedChildIsDismissedByItsPresenterEvenUnderATestStoresDismissal() async {
      let store = TestStore(initialState: PresentingClosing.State()) { PresentingClosing() }
      await store.send(.show) { $0.child = Closing.State() }
      await store.send(.child(.presented(.dismissTapped)))
      await store.receive(.child(.dismiss)) { $0.child = nil }
      #expect(!store.isDismissed)
    }
  }
}

/// A parent that presents `Closing` in a sheet.
private struct PresentingClosing: Reducer {
  struct State: Equatable, Sendable {
    @Presents var child: Engine.TestStoreDismissTests.Closing.State?
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case show
    case child(PresentationAction<Engine.TestStoreDismissTests.Closing.Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .show = action { state.child = Engine.TestStoreDismissTests.Closing.State() }
      return .none
    }
    .ifLet(\.$child, action: \.child) { Engine.TestStoreDismissTests.Closing() }
  }
}
