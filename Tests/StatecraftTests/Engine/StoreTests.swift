import Clocks
import ConcurrencyExtras
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct StoreTests {
    @Test func sendReducesSynchronously() {
      let store = Store(initialState: Counter.State()) { Counter() }
      store.send(.increment)
      #expect(store.count == 1)
      store.send(.setText("hi"))
      #expect(store.state == Counter.State(count: 1, text: "hi"))
    }

    @Test func actionsSentWhileReducingAreQueuedInFIFOOrder() {
      let log = LockIsolated<[Counter.Action]>([])
      let store = Store(initialState: Counter.State()) {
        Logging(log: log)
        Counter()
        Reduce { state, action in
          // Sends two actions from inside a batch: both are reduced, in order, after the
          // actions already queued, and before the outer send returns.
          action == .incrementThrice ? .merge(.send(.setText("a")), .send(.setText("b"))) : .none
        }
      }
      store.send(.incrementThrice)
      #expect(
        log.value == [
          .incrementThrice, .increment, .increment, .increment, .setText("a"), .setText("b"),
        ])
      #expect(store.count == 3)
      #expect(store.text == "b")
    }

    @Test func actionsSentByObserversAreReducedBeforeTheOuterSendReturns() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let token = store.observe { store in
        if store.count == 1 { store.send(.setText("one")) }
      }
      store.send(.increment)
      #expect(store.text == "one")
      token.cancel()
    }

    @Test func observersSeeTheStateOncePerBatch() {
      let store = Store(initialState: Counter.State()) { Counter() }
      var seen: [Int] = []
      let token = store.observe { store in seen.append(store.count) }
      store.send(.incrementThrice)
      #expect(seen == [0, 3])
      token.cancel()
    }

    @Test func noneEffectStartsNoTaskAndAllocatesNoGroup() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let task = store.send(.increment)
      #expect(task.group == nil)
      #expect(task.hasFinished)
      #expect(store.runningEffectCount == 0)
    }

    @Test func storeTaskFinishesWhenEffectsAndWhatTheySentAreDone() async {
      let gate = Gate()
      let log = LockIsolated<[String]>([])
      let store = Store(initialState: 0) {
        Reduce<Int, String> { state, action in
          log.withValue { $0.append(action) }
          switch action {
          case "start":
            return .run { send in await send("step1") }
          case "step1":
            return .run { send in
              await gate.wait()
              await send("step2")
            }
          default:
            state += 1
            return .none
          }
        }
      }
      let task = store.send("start")
      #expect(!task.hasFinished)
      gate.open()
      await task.finish()
      #expect(log.value == ["start", "step1", "step2"])
      #expect(task.hasFinished)
      #expect(store.runningEffectCount == 0)
    }

    @Test func cancellingAStoreTaskCancelsItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { state, action in
          state += action
          guard action == 1 else { return .none }
          return .run { send in
            try await clock.sleep(for: .seconds(10))
            await send(100)
          }
        }
      }
      let task = store.send(1)
      #expect(store.runningEffectCount == 1)
      task.cancel()
      #expect(task.isCancelled)
      await task.finish()
      await clock.run()
      #expect(store.state == 1)
      #expect(store.runningEffectCount == 0)
    }

    @Test func releasingTheStoreCancelsItsEffectsAndFreesIt() async {
      let clock = TestClock()
      let started = Gate()
      let ended = Gate()
      let wasCancelled = LockIsolated(false)
      var store: StoreOf<Counter>? = Store(initialState: Counter.State()) {
        Reduce { state, action in
          state.count += 1
          return .run { send in
            started.open()
            do {
              try await clock.sleep(for: .seconds(10))
            } catch {
              wasCancelled.setValue(true)
            }
            // Ignores cancellation on purpose: the send must be dropped, not delivered.
            await send(.increment)
            ended.open()
          }
        }
      }
      weak let weakStore = store
      store?.send(.increment)
      await started.wait()
      store = nil
      #expect(weakStore == nil)
      await ended.wait()
      #expect(wasCancelled.value)
    }

    @Test func effectsHoldTheStoreWeakly() async {
      let started = Gate()
      var store: Store<Int, Int>? = Store(initialState: 0) {
        Reduce { _, _ in
          .run { _ in
            started.open()
            try await Task.never()
          }
        }
      }
      weak let weakStore = store
      let task = store?.send(1)
      await started.wait()
      store = nil
      #expect(weakStore == nil)
      await task?.finish()
    }
  }
}
