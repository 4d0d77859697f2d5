import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The Composable Architecture's `TaskCancellationTests`, ported to Statecraft's spelling.
  ///
  /// TCA tests its free function `withTaskCancellation(id:)` and a process-wide table of
  /// cancellables. Statecraft has neither: an id is registered only by an effect that a store
  /// runs, in that store. The same promises are checked through a store: `Task.cancel(id:)`
  /// ends the effect, and nothing stays registered once it has.
  @MainActor
  @Suite struct TCATaskCancellationTests {
    enum Action: Equatable, Sendable { case start, stop, started }
    enum ID { case never }

    static func feature(_ gate: Gate) -> Reduce<Int, Action> {
      Reduce { _, action in
        switch action {
        case .start:
          return .run { send in
            gate.open()
            await send(.started)
            try await Task.never()
          }
          .cancellable(id: ID.never)
        case .stop:
          return .run { _ in await Task.cancel(id: ID.never) }
        case .started:
          return .none
        }
      }
    }

    @Test func cancellation() async {
      let gate = Gate()
      let store = Store(initialState: 0, reducer: Self.feature(gate))
      let task = store.send(.start)
      await gate.wait()
      #expect(store.runningEffectCount == 1)
      await store.send(.stop).finish()
      await task.finish()
      #expect(store.runningEffectCount == 0)
    }

    @Test func cancellingTheTaskCleansUpItsEffect() async {
      let gate = Gate()
      let store = TestStore(initialState: 0) { Self.feature(gate) }
      let task = await store.send(.start)
      await store.receive(.started)
      task.cancel()
      await task.finish()
      await store.finish()
    }
  }
}
