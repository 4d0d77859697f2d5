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
  /// The Composable Architecture's `EffectCancellationTests`, ported to Statecraft's spelling.
  ///
  /// TCA subscribes to effects directly and inspects a process-wide table of cancellables;
  /// Statecraft's effects run only in a store, which owns their cancellation. The ports run the
  /// same effects in a store and check what it receives and what it still runs. Not ported:
  /// `testConcurrentCancels` (random delays on concurrent queues: not deterministic),
  /// `testImmediateCancellation` (dropping a Combine subscription: a store keeps its effects),
  /// `testCancelIDHash` (TCA's internal id type); `Effect.cancel(ids:)` is a `merge` of
  /// `cancel(id:)` here.
  @MainActor
  @Suite struct TCAEffectCancellationTests {
    enum Action: Equatable, Sendable {
      case start, startInFlight, startTwice, cancel, value(Int), cancelMany
      case delayed(String, Duration)
      case cancelID(String)
    }
    enum CancelID { case id }

    static func feature(
      _ subject: UncheckedSendable<PassthroughSubject<Int, Never>>,
      clock: TestClock<Duration> = TestClock()
    ) -> Reduce<Int, Action> {
      Reduce { state, action in
        switch action {
        case .start:
          return .publisher(subject.value.map(Action.value)).cancellable(id: CancelID.id)
        case .startInFlight:
          return .publisher(subject.value.map(Action.value))
            .cancellable(id: CancelID.id, cancelInFlight: true)
        case .startTwice:
          return .publisher(subject.value.map(Action.value))
            .cancellable(id: CancelID.id)
            .cancellable(id: CancelID.id)
        case .cancel:
          return .cancel(id: CancelID.id)
        case .value(let value):
          state = value
          return .none
        case .delayed(let id, let delay):
          return .run { send in
            if delay > .zero { try await clock.sleep(for: delay) }
            await send(.value(Int(delay.components.seconds)))
          }
          .cancellable(id: id)
        case .cancelID(let id):
          return .cancel(id: id)
        case .cancelMany:
          return .merge(.cancel(id: "A"), .cancel(id: "C"))
        }
      }
    }

    static func subject() -> UncheckedSendable<PassthroughSubject<Int, Never>> {
      UncheckedSendable(PassthroughSubject())
    }

    @Test func cancellation() async {
      let subject = Self.subject()
      let store = TestStore(initialState: 0) { Self.feature(subject) }
      await store.send(.start)
      subject.value.send(1)
      await store.receive(.value(1)) { $0 = 1 }
      subject.value.send(2)
      await store.receive(.value(2)) { $0 = 2 }
      await store.send(.cancel)
      subject.value.send(3)
      await store.finish()
    }

    @Test func cancelInFlight() async {
      let subject = Self.subject()
      let store = TestStore(initialState: 0) { Self.feature(subject) }
      await store.send(.startInFlight)
      subject.value.send(1)
      await store.receive(.value(1)) { $0 = 1 }
      subject.value.send(2)
      await store.receive(.value(2)) { $0 = 2 }
      await store.send(.startInFlight)
      subject.value.send(3)
      await store.receive(.value(3)) { $0 = 3 }
      subject.value.send(4)
      await store.receive(.value(4)) { $0 = 4 }
      await store.send(.cancel)
    }

    @Test func cancellationAfterDelayWithTestClock() async {
      let clock = TestClock()
      let store = TestStore(initialState: 0) { Self.feature(Self.subject(), clock: clock) }
      await store.send(.delayed("id", .seconds(2)))
      await clock.advance(by: .seconds(1))
      await store.send(.cancelID("id"))
      await clock.run()
      await store.finish()
    }

    @Test func cancellablesCleanUpOnComplete() async {
      let store = Store(initialState: 0, reducer: Self.feature(Self.subject()))
      let task = store.send(.delayed("id", .zero))
      await task.finish()
      #expect(store.runningEffectCount == 0)
      #expect(store.state == 0)
    }

    @Test func cancellablesCleanUpOnCancel() async {
      let clock = TestClock()
      let store = Store(initialState: 0, reducer: Self.feature(Self.subject(), clock: clock))
      let task = store.send(.delayed("id", .seconds(1)))
      #expect(store.runningEffectCount == 1)
      store.send(.cancelID("id"))
      await task.finish()
      #expect(store.runningEffectCount == 0)
    }

    @Test func doubleCancellation() async {
      let subject = Self.subject()
      let store = TestStore(initialState: 0) { Self.feature(subject) }
      await store.send(.startTwice)
      subject.value.send(1)
      await store.receive(.value(1)) { $0 = 1 }
      await store.send(.cancel)
      subject.value.send(2)
      await store.finish()
    }

    @Test func completeBeforeCancellation() async {
      let subject = Self.subject()
      let store = TestStore(initialState: 0) { Self.feature(subject) }
      let task = await store.send(.start)
      subject.value.send(1)
      await store.receive(.value(1)) { $0 = 1 }
      subject.value.send(completion: .finished)
      await task.finish()
      await store.send(.cancel)
      await store.finish()
    }

    @Test func sharedID() async {
      let clock = TestClock()
      let store = TestStore(initialState: 0) { Self.feature(Self.subject(), clock: clock) }
      await store.send(.delayed("id", .seconds(1)))
      await store.send(.delayed("id", .seconds(2)))
      await clock.advance(by: .seconds(1))
      await store.receive(.value(1)) { $0 = 1 }
      await clock.advance(by: .seconds(1))
      await store.receive(.value(2)) { $0 = 2 }
    }

    @Test func nestedMergeCancellation() async {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .start:
            return .merge(
              .publisher([1, 2].publisher.map(Action.value)).cancellable(id: 1)
            )
            .cancellable(id: 2)
          case .value(let value):
            state = value
            return .none
          default:
            return .none
          }
        }
      }
      await store.send(.start)
      await store.receive(.value(1)) { $0 = 1 }
      await store.receive(.value(2)) { $0 = 2 }
    }

    @Test func multipleCancellations() async {
      let clock = TestClock()
      let store = TestStore(initialState: 0) { Self.feature(Self.subject(), clock: clock) }
      await store.send(.delayed("A", .seconds(1)))
      await store.send(.delayed("B", .seconds(1)))
      await store.send(.delayed("C", .seconds(1)))
      await store.send(.cancelMany)
      await clock.advance(by: .seconds(1))
      await store.receive(.value(1)) { $0 = 1 }
      await store.finish()
    }
  }
}
