import Clocks
import ConcurrencyExtras
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// A cancelled effect is over for the test store at once, however it was cancelled: the
  /// release check that follows right away doesn't count it, though its task hasn't unwound.
  @MainActor
  @Suite struct CancelledEffectTests {
    struct Timer: Reducer {
      struct State: Equatable, Sendable { var isOn = false }
      enum Action: Equatable, Sendable { case start, stop }
      enum CancelID { case timer }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          state.isOn = true
          return .run { _ in try await Task.never() }.cancellable(id: CancelID.timer)
        case .stop:
          state.isOn = false
          return .cancel(id: CancelID.timer)
        }
      }
    }

    @Test func anEffectCancelledByIDIsOverAtRelease() async {
      let store = TestStore(initialState: Timer.State()) { Timer() }
      await store.send(.start) { $0.isOn = true }
      await store.send(.stop) { $0.isOn = false }
    }

    @Test func anEffectCancelledThroughItsTaskIsOverAtRelease() async {
      let store = TestStore(initialState: Timer.State()) { Timer() }
      let task = await store.send(.start) { $0.isOn = true }
      task.cancel()
    }

    @Test func skippedInFlightEffectsAreOverAtRelease() async {
      let store = TestStore(initialState: Timer.State()) { Timer() }
      await store.send(.start) { $0.isOn = true }
      await store.skipInFlightEffects()
    }

    @Test func theEffectsOfAChildSetToNilAreOverAtRelease() async {
      let store = TestStore(initialState: List.State()) { List(clock: TestClock()) }
      await store.send(.showDetail(7)) { $0.detail = Row.State(id: 7) }
      await store.send(.detail(.load))
      await store.send(.hideDetail) { $0.detail = nil }
    }

    @Test func theEffectsOfARemovedRowAreOverAtRelease() async {
      let store = TestStore(initialState: List.State()) { List(clock: TestClock()) }
      await store.send(.addRow(1)) { $0.rows = [Row.State(id: 1)] }
      await store.send(.rows(.element(id: 1, action: .load)))
      await store.send(.removeRow(1)) { $0.rows = [] }
    }
  }
}
