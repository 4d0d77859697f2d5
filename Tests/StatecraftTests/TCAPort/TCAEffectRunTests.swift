import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The Composable Architecture's `EffectRunTests`, ported to Statecraft's spelling.
  ///
  /// `testRunEscapeFailure`'s publisher half is not ported: Statecraft has no
  /// `eraseToEffect()`; its `run` half is `sendAfterTheOperationReturnedIsReported`.
  @MainActor
  @Suite struct TCAEffectRunTests {
    enum Action: Equatable, Sendable { case tapped, response, responseA, responseB }
    enum CancelID { case run }

    @Test func run() async {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          action == .tapped ? .run { send in await send(.response) } : .none
        }
      }
      await store.send(.tapped)
      await store.receive(.response)
    }

    @Test func runCatch() async {
      struct Failure: Error {}
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          guard action == .tapped else { return .none }
          return .run { _ in
            throw Failure()
          } catch: { _, send in
            await send(.response)
          }
        }
      }
      await store.send(.tapped)
      await store.receive(.response)
    }

    @Test func runUnhandledFailure() async {
      struct Failure: Error {}
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          action == .tapped ? .run { _ in throw Failure() } : .none
        }
      }
      await expectOneFailure(containing: ["threw an error that nothing handled", "Failure()"]) {
        await store.send(.tapped).finish(timeout: .seconds(5))
      }
    }

    @Test func runCancellation() async {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          guard action == .tapped else { return .none }
          return .run { send in
            await Task.cancel(id: CancelID.run)
            try Task.checkCancellation()
            await send(.response)
          }
          .cancellable(id: CancelID.run)
        }
      }
      await store.send(.tapped).finish()
    }

    @Test func runCancellationCatch() async {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          guard action == .tapped else { return .none }
          return .run { send in
            await Task.cancel(id: CancelID.run)
            try Task.checkCancellation()
            await send(.responseA)
          } catch: { _, send in
            await send(.responseB)
          }
          .cancellable(id: CancelID.run)
        }
      }
      await store.send(.tapped).finish()
    }

    @Test func sendAfterTheOperationReturnedIsReported() async {
      enum Escape: Equatable, Sendable { case begin, another, end }
      let clock = TestClock()
      let store = TestStore(initialState: 0) {
        Reduce<Int, Escape> { _, action in
          guard action == .begin else { return .none }
          return .run { send in
            Task { @MainActor in
              try await clock.sleep(for: .seconds(1))
              await expectOneFailure(containing: ["after its operation had returned"]) {
                send(.another)
              }
            }
            await send(.end)
          }
        }
      }
      let begin = await store.send(.begin)
      await store.receive(.end)
      await begin.finish()
      await clock.advance(by: .seconds(1))
      await store.skipReceivedActions(strict: false)
    }
  }
}
