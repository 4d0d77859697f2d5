import Clocks
import ConcurrencyExtras
import IssueReporting
import Testing

@testable import Statecraft

extension Engine {
  /// Cancellation at every await of an effect: before it starts, while it sleeps, right after it
  /// sends, and with the store, by its `StoreTask`, by id, from inside an effect.
  @MainActor
  @Suite struct HostileCancellationTests {
    struct Job: Reducer {
      struct State: Equatable, Sendable {
        var log: [String] = []
        var cancelsWhenStarted = false
      }

      enum Action: Equatable, Sendable {
        case start
        case started
        case slept
        case done
        case cancel
        case cancelFromEffect
      }

      let clock: TestClock<Duration>
      let started: Gate
      let proceed: Gate

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .run { [clock, started, proceed] send in
            await send(.started)
            started.open()
            try await clock.sleep(for: .seconds(1))
            await send(.slept)
            await proceed.wait()
            await send(.done)
          }
          .cancellable(id: "job")
        case .started:
          state.log.append("started")
          return state.cancelsWhenStarted ? .cancel(id: "job") : .none
        case .slept:
          state.log.append("slept")
          return .none
        case .done:
          state.log.append("done")
          return .none
        case .cancel:
          return .cancel(id: "job")
        case .cancelFromEffect:
          return .run { _ in await Task.cancel(id: "job") }
        }
      }
    }

    struct Fixture {
      let clock = TestClock()
      let started = Gate()
      let proceed = Gate()
      let store: StoreOf<Job>

      @MainActor
      init(cancelsWhenStarted: Bool = false) {
        store = Store(initialState: Job.State(cancelsWhenStarted: cancelsWhenStarted)) {
          [clock, started, proceed] in
          Job(clock: clock, started: started, proceed: proceed)
        }
      }
    }

    @Test func aStoreTaskCancelledBeforeItsEffectStartsDeliversNothing() async {
      let fixture = Fixture()
      let task = fixture.store.send(.start)
      task.cancel()
      await task.finish()
      #expect(fixture.store.log == [])
      #expect(fixture.store.core.runtime.effects.activeEffectCount == 0)
      #expect(task.isCancelled)
    }

    @Test func anIDCancelledBeforeItsEffectStartsDeliversNothing() async {
      let fixture = Fixture()
      let task = fixture.store.send(.start)
      fixture.store.send(.cancel)
      await task.finish()
      #expect(fixture.store.log == [])
      #expect(fixture.store.core.runtime.effects.activeEffectCount == 0)
    }

    @Test func aStoreTaskCancelledWhileItsEffectSleepsDeliversNothingMore() async {
      let fixture = Fixture()
      let task = fixture.store.send(.start)
      await fixture.started.wait()
      task.cancel()
      await fixture.clock.run()
      fixture.proceed.open()
      await task.finish()
      #expect(fixture.store.log == ["started"])
      #expect(fixture.store.core.runtime.effects.activeEffectCount == 0)
    }

    @Test func anIDCancelledWhileItsEffectWaitsDeliversNothingMore() async {
      let fixture = Fixture()
      let task = fixture.store.send(.start)
      await fixture.started.wait()
      await fixture.clock.run()
      #expect(fixture.store.log == ["started", "slept"])
      fixture.store.send(.cancel)
      fixture.proceed.open()
      await task.finish()
      #expect(fixture.store.log == ["started", "slept"])
      #expect(fixture.store.core.runtime.effects.activeEffectCount == 0)
    }

    @Test func anEffectCancelledByTheActionItJustSentDeliversNothingMore() async {
      let fixture = Fixture(cancelsWhenStarted: true)
      let task = fixture.store.send(.start)
      #expect(fixture.store.core.runtime.effects.activeEffectCount == 1)
      await fixture.started.wait()
      await fixture.clock.run()
      fixture.proceed.open()
      await task.finish()
      #expect(fixture.store.log == ["started"])
      #expect(fixture.store.core.runtime.effects.activeEffectCount == 0)
    }

    @Test func anEffectCancelledFromAnotherEffectDeliversNothingMore() async {
      let fixture = Fixture()
      let task = fixture.store.send(.start)
      await fixture.started.wait()
      await fixture.store.send(.cancelFromEffect).finish()
      await fixture.clock.run()
      fixture.proceed.open()
      await task.finish()
      #expect(fixture.store.log == ["started"])
    }

    @Test func cancellingTheSameStoreTaskTwiceAndAfterItFinishedIsHarmless() async {
      let fixture = Fixture()
      let task = fixture.store.send(.start)
      await fixture.started.wait()
      await fixture.clock.run()
      fixture.proceed.open()
      await task.finish()
      #expect(fixture.store.log == ["started", "slept", "done"])
      task.cancel()
      task.cancel()
      #expect(task.hasFinished)
      #expect(fixture.store.log == ["started", "slept", "done"])
    }

    @Test func aStoreReleasedWhileItsEffectWaitsEndsTheEffectWithoutAReport() async {
      let recorder = IssueRecorder()
      await withIssueReporters(IssueReporters.current + [recorder]) {
        let clock = TestClock()
        let started = Gate()
        let proceed = Gate()
        var store: StoreOf<Job>? = Store(initialState: Job.State()) {
          Job(clock: clock, started: started, proceed: proceed)
        }
        weak let weakStore = store
        let task = store!.send(.start)
        await started.wait()
        await clock.run()
        store = nil
        #expect(weakStore == nil)
        proceed.open()
        await task.finish()
        #expect(task.hasFinished)
      }
      #expect(recorder.messages.value == [])
    }

    @Test func anErrorThrownAfterTheStoreCancelledTheEffectIsNotReported() async {
      struct Failure: Error {}
      let recorder = IssueRecorder()
      await withIssueReporters(IssueReporters.current + [recorder]) {
        let started = Gate()
        let store = Store(initialState: 0) {
          Reduce<Int, Bool> { _, start in
            guard start else { return .cancel(id: "failing") }
            return .run { _ in
              started.open()
              await Gate().wait()  // returns when cancelled
              throw Failure()
            }
            .cancellable(id: "failing")
          }
        }
        let task = store.send(true)
        await started.wait()
        store.send(false)
        await task.finish()
      }
      #expect(recorder.messages.value == [])
    }
  }
}
