import Clocks
import ConcurrencyExtras
import Foundation
import IdentifiedCollections
import Testing

@testable import Statecraft

/// How big the stress runs are: `STATECRAFT_STRESS_SCALE` divides them (sanitizer runs use a
/// smaller scale).
enum StressSize {
  static let scale = max(
    1, Int(ProcessInfo.processInfo.environment["STATECRAFT_STRESS_SCALE"] ?? "") ?? 1)
  static let senders = 100
  static var actionsPerSender: Int { 10_000 / scale }
  static var cycles: Int { 10_000 / scale }
}

extension Engine {
  @MainActor
  @Suite struct StressTests {
    /// Counts actions per sender and records any loss, duplicate or reordering.
    struct Ledger: Reducer {
      struct State: Equatable {
        var next: [Int] = Array(repeating: 0, count: StressSize.senders)
        var received = 0
        var faults: [String] = []
      }
      enum Action: Sendable {
        case start
        case value(sender: Int, sequence: Int)
      }

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .merge(
            (0..<StressSize.senders).map { sender in
              .run { send in
                for sequence in 0..<StressSize.actionsPerSender {
                  await send(.value(sender: sender, sequence: sequence))
                }
              }
            })
        case .value(let sender, let sequence):
          if state.next[sender] != sequence, state.faults.count < 10 {
            state.faults.append("sender \(sender): expected \(state.next[sender]), got \(sequence)")
          }
          state.next[sender] = sequence + 1
          state.received += 1
          return .none
        }
      }
    }

    @Test func actionsFromConcurrentEffectsAreNeitherLostDuplicatedNorReordered() async {
      // NB: real concurrency here: the senders run on the global executor, not the main queue.
      let wasSerial = uncheckedUseMainSerialExecutor
      uncheckedUseMainSerialExecutor = false
      defer { uncheckedUseMainSerialExecutor = wasSerial }
      let store = Store(initialState: Ledger.State()) { Ledger() }
      await store.send(.start).finish()
      let total = StressSize.senders * StressSize.actionsPerSender
      #expect(store.received == total)
      #expect(store.faults == [])
      #expect(store.next.allSatisfy { $0 == StressSize.actionsPerSender })
      #expect(store.runningEffectCount == 0)
    }

    /// A row whose load never ends on its own: only cancellation ends it.
    struct Pending: Reducer {
      struct State: Equatable, Identifiable {
        let id: Int
      }
      enum Action: Equatable, Sendable { case load, stop }
      enum CancelID { case load }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load:
          return .run { _ in try await Task.never() }
            .cancellable(id: CancelID.load, cancelInFlight: true)
        case .stop:
          return .cancel(id: CancelID.load)
        }
      }
    }

    struct Cycles: Reducer {
      struct State: Equatable {
        var rows: IdentifiedArrayOf<Pending.State> = []
        var detail: Pending.State?
      }
      enum Action: Equatable, Sendable {
        case rows(IdentifiedActionOf<Pending>)
        case detail(Pending.Action)
        case add(Int), remove(Int), show(Int), hide

        static let rowsCase = casePath(Action.rows) {
          if case .rows(let action) = $0 { action } else { nil }
        }
        static let detailCase = casePath(Action.detail) {
          if case .detail(let action) = $0 { action } else { nil }
        }
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .add(let id): state.rows.append(Pending.State(id: id))
          case .remove(let id): state.rows.remove(id: id)
          case .show(let id): state.detail = Pending.State(id: id)
          case .hide: state.detail = nil
          case .rows, .detail: break
          }
          return .none
        }
        .forEach(\.rows, action: Action.rowsCase) { Pending() }
        .ifLet(\.detail, action: Action.detailCase) { Pending() }
      }
    }

    @Test func startAndCancelCyclesLeaveNoLiveEffects() async {
      let store = Store(initialState: Cycles.State()) { Cycles() }
      var tasks: [StoreTask] = []
      for cycle in 0..<StressSize.cycles {
        let id = cycle % 7
        switch cycle % 4 {
        case 0:
          // Cancel in flight: a second load of the same row replaces the first.
          if store.rows[id: id] == nil { store.send(.add(id)) }
          tasks.append(store.send(.rows(.element(id: id, action: .load))))
          tasks.append(store.send(.rows(.element(id: id, action: .load))))
        case 1:
          // By id.
          if store.rows[id: id] != nil { store.send(.rows(.element(id: id, action: .stop))) }
        case 2:
          // ifLet to nil.
          store.send(.show(id))
          tasks.append(store.send(.detail(.load)))
          store.send(.hide)
        default:
          // forEach removal.
          tasks.append(store.send(.add(100 + cycle)))
          tasks.append(store.send(.rows(.element(id: 100 + cycle, action: .load))))
          store.send(.remove(100 + cycle))
        }
      }
      for id in store.rows.ids { store.send(.remove(id)) }
      for task in tasks { await task.finish() }
      #expect(store.runningEffectCount == 0)
      #expect(store.rows.isEmpty)
    }

    @Test func aReleasedReducerStoreCancelsEverythingAndIsFreed() async {
      let delivered = LockIsolated(0)
      let ended = LockIsolated(0)
      let started = Gate()
      var store: Store<Int, Int>? = Store(initialState: 0) {
        Reduce { state, action in
          state += 1
          guard action == 0 else { return .none }
          return .merge(
            (1...50).map { n in
              .run { send in
                if n == 50 { started.open() }
                try? await Task.never()
                await send(n)  // dropped: the effect was cancelled
                ended.withValue { $0 += 1 }
              }
            })
        }
      }
      weak let weakStore = store
      let task = store?.send(0)
      await started.wait()
      // An observation still held must not keep the released store's effects alive.
      let observation = store?.observe { _ in delivered.withValue { $0 += 1 } }
      store = nil
      #expect(weakStore == nil)
      await task?.finish()
      #expect(ended.value == 50)
      #expect(delivered.value == 1)
      _ = observation
    }

    final class EchoReactor: Reactor {
      enum Action: Sendable { case start }
      enum Mutation: Sendable { case tick }
      let started: Gate
      let ended: LockIsolated<Int>
      init(started: Gate, ended: LockIsolated<Int>) {
        self.started = started
        self.ended = ended
      }
      func mutate(state: Int, action: Action) -> Effect<Mutation> {
        .run { [started, ended] send in
          started.open()
          try? await Task.never()
          await send(.tick)
          ended.withValue { $0 += 1 }
        }
      }
      func reduce(state: inout Int, mutation: Mutation) { state += 1 }
    }

    @Test func aReleasedReactorStoreCancelsEverythingAndIsFreed() async {
      let started = Gate()
      let ended = LockIsolated(0)
      var store: ReactorStoreOf<EchoReactor>? = Store(
        initialState: 0, reactor: EchoReactor(started: started, ended: ended))
      weak let weakStore = store
      let task = store?.send(.start)
      await started.wait()
      store = nil
      #expect(weakStore == nil)
      await task?.finish()
      #expect(ended.value == 1)
    }

    struct Forever: FeedbackSystem {
      let started: Gate
      let ended: LockIsolated<Int>
      func reduce(into state: inout Int, event: Int) { state += event }
      var feedbacks: [Feedback<Int, Int>] {
        [
          Feedback(.once) { [started, ended] _ in
            started.open()
            try? await Task.never()
            ended.withValue { $0 += 1 }
            return 1
          }
        ]
      }
    }

    @Test func aReleasedFeedbackStoreCancelsEverythingAndIsFreed() async {
      let started = Gate()
      let ended = LockIsolated(0)
      var store: FeedbackStoreOf<Forever>? = Store(
        initialState: 0, system: Forever(started: started, ended: ended))
      weak let weakStore = store
      let run = Task { [store] in await store?.run() }
      await started.wait()
      run.cancel()
      await run.value
      store = nil
      #expect(weakStore == nil)
      #expect(ended.value == 1)
    }
  }
}
