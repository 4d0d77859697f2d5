import Clocks
import ConcurrencyExtras
import Foundation
import Testing

@testable import Statecraft

extension Engine {
  /// Which errors thrown by a `run` effect are reported.
  @MainActor
  @Suite struct EffectErrorTests {
    /// `1` starts a request that throws `error` once it is cancelled; `2` cancels it.
    static func request(
      clock: TestClock<Duration>,
      throwing makeError: @escaping @Sendable () -> any Error,
      handled: LockIsolated<Int>? = nil
    ) -> Store<Int, Int> {
      Store(initialState: 0) {
        Reduce<Int, Int> { _, action in
          guard action == 1 else { return .cancel(id: "request") }
          return .run { _ in
            do {
              try await clock.sleep(for: .seconds(1))
            } catch {
              throw makeError()
            }
          } catch: { _, _ in
            handled?.withValue { $0 += 1 }
          }
          .cancellable(id: "request")
        }
      }
    }

    @Test func anErrorThrownAfterTheEffectWasCancelledIsNotReported() async {
      let clock = TestClock()
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { _, action in
          guard action == 1 else { return .cancel(id: "request") }
          return .run { _ in
            do {
              try await clock.sleep(for: .seconds(1))
            } catch {
              // What `URLSession` throws when its task is cancelled.
              throw URLError(.cancelled)
            }
          }
          .cancellable(id: "request")
        }
      }
      let task = store.send(1)
      await store.wait(while: { _ in store.runningEffectCount == 0 })
      store.send(2)
      await task.finish()
      #expect(store.runningEffectCount == 0)
    }

    @Test func anErrorThrownAfterTheStoreTaskWasCancelledIsNotHandedToCatch() async {
      let clock = TestClock()
      let handled = LockIsolated(0)
      let store = Self.request(
        clock: clock, throwing: { URLError(.cancelled) }, handled: handled)
      let task = store.send(1)
      await store.wait(while: { _ in store.runningEffectCount == 0 })
      task.cancel()
      await task.finish()
      #expect(handled.value == 0)
    }

    @Test func anErrorOfAnEffectThatWasNotCancelledStillGoesToCatch() async {
      let clock = TestClock()
      let handled = LockIsolated(0)
      let store = Self.request(
        clock: clock, throwing: { URLError(.cancelled) }, handled: handled)
      let task = store.send(1)
      await clock.advance(by: .seconds(1))
      await task.finish()
      #expect(handled.value == 0)
      // The sleep finished: nothing was thrown. Now a request that fails on its own:
      let failing = Store(initialState: 0) {
        Reduce<Int, Int> { _, _ in
          .run { _ in
            throw URLError(.cancelled)
          } catch: { _, _ in
            handled.withValue { $0 += 1 }
          }
        }
      }
      await failing.send(1).finish()
      #expect(handled.value == 1)
    }

    @Test func aCancellationErrorFromAnEffectThatWasNotCancelledIsReported() async {
      await expectOneFailure(containing: ["threw an error that nothing handled", "Cancellation"]) {
        let store = Store(initialState: 0) {
          Reduce<Int, Int> { _, _ in
            .run { _ in throw CancellationError() }
          }
        }
        await store.send(1).finish()
      }
    }
  }
}
