import ConcurrencyExtras
import Foundation
import IdentifiedCollections
import StatecraftCombine
import Testing

@testable import Statecraft

extension Engine {
  /// Bursts at the edges of the engine: thousands of sends from effects, a publisher that emits
  /// a thousand values while it is subscribed to, pulses assigned hundreds of times.
  @MainActor
  @Suite struct HostileBurstTests {
    struct Log: Equatable, Sendable {
      var values: [Int] = []
      @Pulse var message = 0
    }

    enum Event: Equatable, Sendable {
      case start
      case append(Int)
      case pulse(Int)
      case pulseMany(ClosedRange<Int>)
      case subscribe
      case cancel
      case chain(Int)
    }

    static func store(
      effects: Int = 1, perEffect: Int = 0,
      publisher: AnyPublisher<Int, Never>? = nil
    ) -> Store<Log, Event> {
      let publisher = UncheckedSendable(publisher)
      return Store(initialState: Log()) {
        Reduce<Log, Event> { state, event in
          switch event {
          case .start:
            return .merge(
              (0..<effects).map { effect in
                .run { send in
                  for value in 0..<perEffect { await send(.append(effect * perEffect + value)) }
                }
              })
          case .append(let value):
            state.values.append(value)
            return .none
          case .pulse(let value):
            state.message = value
            return .none
          case .pulseMany(let values):
            for value in values { state.message = value }
            return .none
          case .subscribe:
            guard let publisher = publisher.value else { return .none }
            return .publisher(publisher.map(Event.append)).cancellable(id: "publisher")
          case .cancel:
            return .cancel(id: "publisher")
          case .chain(let remaining):
            state.values.append(remaining)
            return remaining > 0 ? .send(.chain(remaining - 1)) : .none
          }
        }
      }
    }

    @Test func tenThousandSendsFromOneEffectAreAllReducedInOrder() async {
      let store = Self.store(perEffect: 10_000)
      await store.send(.start).finish()
      #expect(store[\.values] == Array(0..<10_000))
      #expect(store.core.runtime.effects.activeEffectCount == 0)
    }

    @Test func tenThousandSendsFromAHundredEffectsKeepEachEffectsOrder() async {
      let store = Self.store(effects: 100, perEffect: 100)
      await store.send(.start).finish()
      #expect(store[\.values].count == 10_000)
      #expect(Set(store[\.values]).count == 10_000)
      for effect in 0..<100 {
        let own = store[\.values].filter { $0 / 100 == effect }
        #expect(own == Array(effect * 100..<(effect + 1) * 100))
      }
    }

    @Test func aThousandValuesEmittedDuringTheSubscriptionAreReducedBeforeSendReturns() {
      let store = Self.store(publisher: (0..<1_000).publisher.eraseToAnyPublisher())
      let task = store.send(.subscribe)
      #expect(store[\.values] == Array(0..<1_000))
      #expect(store.core.runtime.effects.activeEffectCount == 0)
      #expect(task.hasFinished)
    }

    @Test func aPublisherThatEmitsAThousandThenStaysHotLosesNothing() async {
      let subject = PassthroughSubject<Int, Never>()
      let store = Self.store(
        publisher: (0..<1_000).publisher.append(subject).eraseToAnyPublisher())
      let task = store.send(.subscribe)
      #expect(store[\.values] == Array(0..<1_000))
      #expect(store.core.runtime.effects.activeEffectCount == 1)
      for value in 1_000..<2_000 { subject.send(value) }
      subject.send(completion: .finished)
      await task.finish()
      #expect(store[\.values] == Array(0..<2_000))
      #expect(store.core.runtime.effects.activeEffectCount == 0)
    }

    @Test func aSubjectThatEmitsAThousandInARowAfterSendReturnsLosesNothing() async {
      let subject = PassthroughSubject<Int, Never>()
      let store = Self.store(publisher: subject.eraseToAnyPublisher())
      let task = store.send(.subscribe)
      for value in 0..<1_000 { subject.send(value) }
      #expect(store[\.values] == Array(0..<1_000))
      store.send(.cancel)
      subject.send(1_000)
      await task.finish()
      #expect(store[\.values] == Array(0..<1_000))
    }

    @Test func aSubjectsValuesFromAnotherThreadArriveInOrder() async {
      let subject = PassthroughSubject<Int, Never>()
      let store = Self.store(publisher: subject.eraseToAnyPublisher())
      let task = store.send(.subscribe)
      let sender = UncheckedSendable(subject)
      await Task.detached {
        for value in 0..<1_000 { sender.value.send(value) }
        sender.value.send(completion: .finished)
      }.value
      await task.finish()
      #expect(store[\.values] == Array(0..<1_000))
    }

    @Test func fiveHundredPulsesInOneBatchReachAReaderWithRoomForThemInOrder() async {
      var store: Store<Log, Event>? = Self.store()
      let pulses = store!.pulses(\.$message, bufferingLimit: 1_000)
      store!.send(.pulseMany(1...500))
      store = nil
      var received: [Int] = []
      for await value in pulses { received.append(value) }
      #expect(received == Array(1...500))
    }

    @Test func fiveHundredPulsesInOneBatchKeepTheNewestHundredByDefault() async {
      var store: Store<Log, Event>? = Self.store()
      let pulses = store!.pulses(\.$message)
      store!.send(.pulseMany(1...500))
      store = nil
      var received: [Int] = []
      for await value in pulses { received.append(value) }
      #expect(received == Array(401...500))
    }

    @Test func fiveHundredPulsesInFiveHundredBatchesReachASlowReaderInOrder() async {
      var store: Store<Log, Event>? = Self.store()
      let pulses = store!.pulses(\.$message, bufferingLimit: 500)
      for value in 1...500 { store!.send(.pulse(value)) }
      store = nil
      var received: [Int] = []
      for await value in pulses { received.append(value) }
      #expect(received == Array(1...500))
    }

    @Test func pulsesAssignedAcrossBatchesWhileAReaderIsSuspendedReachItInOrder() async {
      let store = Self.store()
      let pulses = store.pulses(\.$message)
      let reader = Task {
        var pulses = pulses.makeAsyncIterator()
        var received: [Int] = []
        for _ in 0..<6 { received.append(await pulses.next() ?? -1) }
        return received
      }
      await Task.yield()
      store.send(.pulse(1))
      store.send(.pulseMany(2...4))
      store.send(.pulse(4))
      store.send(.pulse(4))
      #expect(await reader.value == [1, 2, 3, 4, 4, 4])
    }

    @Test func twoReadersOfOnePulseEachReceiveEveryAssignment() async {
      var store: Store<Log, Event>? = Self.store()
      let first = store!.pulses(\.$message)
      store!.send(.pulse(1))
      let second = store!.pulses(\.$message)
      store!.send(.pulseMany(2...3))
      store!.send(.append(0))  // not a pulse
      store!.send(.pulse(3))
      store = nil
      var firstReceived: [Int] = []
      for await value in first { firstReceived.append(value) }
      var secondReceived: [Int] = []
      for await value in second { secondReceived.append(value) }
      #expect(firstReceived == [1, 2, 3, 3])
      #expect(secondReceived == [2, 3, 3])
    }

    @Test func aReaderThatStopsReadingDoesNotHoldBackAnother() async {
      var store: Store<Log, Event>? = Self.store()
      let kept = store!.pulses(\.$message)
      do {
        let abandoned = store!.pulses(\.$message)
        store!.send(.pulse(1))
        withExtendedLifetime(abandoned) {}
      }
      store!.send(.pulse(2))
      store = nil
      var received: [Int] = []
      for await value in kept { received.append(value) }
      #expect(received == [1, 2])
    }
    @Test func aChainOfTenThousandSendEffectsIsReducedBeforeSendReturns() {
      let store = Self.store()
      store.send(.chain(9_999))
      #expect(store[\.values] == Array((0..<10_000).reversed()))
    }

    @Test func aConcatenationOfTenThousandSendsIsReducedInOrder() {
      let store = Store(initialState: [Int]()) {
        Reduce<[Int], Int> { state, value in
          guard value >= 0 else { return .concatenate((0..<10_000).map { .send($0) }) }
          state.append(value)
          return .none
        }
      }
      store.send(-1)
      #expect(store.state == Array(0..<10_000))
    }

    struct Banner: Reducer {
      struct Row: Equatable, Identifiable, Sendable {
        var id: Int
        @Pulse var alert = 0
      }
      enum RowAction: Equatable, Sendable {
        case alert(ClosedRange<Int>)
      }
      struct State: Equatable, Sendable {
        var rows: IdentifiedArrayOf<Row> = []
      }
      enum Action: Equatable, Sendable {
        case rows(IdentifiedAction<Int, RowAction>)
        case alertBoth
        static let rowsCase = casePath(Action.rows) {
          if case .rows(let action) = $0 { action } else { nil }
        }
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case .alertBoth = action {
            for value in 7...9 { state.rows[id: 2]?.alert = value }
            state.rows[id: 1]?.alert = 1
          }
          return .none
        }
        .forEach(\.rows, action: Action.rowsCase) {
          Reduce<Row, RowAction> { state, action in
            switch action {
            case .alert(let values):
              for value in values { state.alert = value }
              return .none
            }
          }
        }
      }
    }

    @Test func aRowStoresPulsesReceiveEveryAssignmentToThatRowOnly() async {
      var store: StoreOf<Banner>? = Store(
        initialState: Banner.State(rows: [Banner.Row(id: 1), Banner.Row(id: 2)])
      ) {
        Banner()
      }
      let pulses = store!.scope(state: \.rows, id: 1) { .rows($0) }!.pulses(\.$alert)
      store!.send(.rows(.element(id: 1, action: .alert(1...3))))
      store!.send(.rows(.element(id: 2, action: .alert(7...9))))
      store!.send(.rows(.element(id: 1, action: .alert(3...3))))
      store = nil
      var received: [Int] = []
      for await value in pulses { received.append(value) }
      #expect(received == [1, 2, 3, 3])
    }
    @Test func aPulseCopiedIntoAnotherRowDeliversOnlyItsOwnRowsAssignments() async {
      let first = Banner.Row(id: 1)
      var second = first  // a copy: the same pulse, until each is assigned
      second.id = 2
      var store: StoreOf<Banner>? = Store(initialState: Banner.State(rows: [first, second])) {
        Banner()
      }
      let pulses = store!.scope(state: \.rows, id: 1) { .rows($0) }!.pulses(\.$alert)
      let secondPulses = store!.scope(state: \.rows, id: 2) { .rows($0) }!.pulses(\.$alert)
      store!.send(.alertBoth)
      store!.send(.rows(.element(id: 2, action: .alert(4...5))))
      store!.send(.rows(.element(id: 1, action: .alert(2...2))))
      store = nil
      var received: [Int] = []
      for await value in pulses { received.append(value) }
      var secondReceived: [Int] = []
      for await value in secondPulses { secondReceived.append(value) }
      #expect(received == [1, 2])
      #expect(secondReceived == [7, 8, 9, 4, 5])
    }
    @MainActor
    final class AlertWatcher: StateSubscriber {
      var fired: [Int: [Int]] = [:]
      func state(_ state: Banner.State) {
        for row in state.rows {
          row.$alert.updated { self.fired[row.id, default: []].append($0) }
        }
      }
    }

    @Test func aSubscriberSeesEachCopyOfAPulseUpdatedOnlyWhenThatCopyIsAssigned() {
      let first = Banner.Row(id: 1)
      var second = first
      second.id = 2
      let store = Store(initialState: Banner.State(rows: [first, second])) { Banner() }
      let watcher = AlertWatcher()
      let subscription = store.subscribe(watcher)
      store.send(.alertBoth)
      #expect(watcher.fired == [1: [1], 2: [9]])
      store.send(.rows(.element(id: 2, action: .alert(4...5))))
      #expect(watcher.fired == [1: [1], 2: [9, 5]])
      store.send(.rows(.element(id: 1, action: .alert(2...2))))
      #expect(watcher.fired == [1: [1, 2], 2: [9, 5]])
      withExtendedLifetime(subscription) {}
    }
  }
}
