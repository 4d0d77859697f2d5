import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// `forEach` over a `StackState`: ids, pops, late actions, misuse, a bound path.
  @MainActor
  @Suite struct StackTests {
    @Test func idsAreMonotonicAndNeverReusedEvenOnARebuiltStack() {
      let store = Store(initialState: Drill.State()) { Drill(clock: TestClock()) }
      store.send(.push)
      store.send(.push)
      let first = Array(store.path.ids)
      #expect(first[0] < first[1])
      store.send(.path(.popFrom(id: first[1])))
      store.send(.push)
      let second = Array(store.path.ids)
      #expect(second[0] == first[0])
      #expect(second[1] > first[1])
      store.send(.rebuild)
      let rebuilt = Array(store.path.ids)
      #expect(rebuilt.count == 2)
      #expect(rebuilt.allSatisfy { !second.contains($0) && $0 > second[1] })
    }

    @Test func poppingCancelsThePoppedElementsEffectsOnly() async {
      let clock = TestClock()
      let store = Store(initialState: Drill.State()) { Drill(clock: clock) }
      store.send(.push)
      store.send(.push)
      store.send(.push)
      let ids = Array(store.path.ids)
      let tasks = ids.map { store.send(.path(.element(id: $0, action: .tickLater))) }
      store.send(.path(.popFrom(id: ids[1])))
      // Late ticks of the popped elements would be reported as actions for gone ids.
      await clock.run()
      for task in tasks { await task.finish() }
      #expect(Array(store.path) == [Ticker.State(ticks: 1)])
      #expect(store.runningEffectCount == 0)
      let last = store.send(.path(.element(id: ids[0], action: .tickLater)))
      store.send(.popAll)
      await clock.run()
      await last.finish()
      #expect(store.runningEffectCount == 0)
    }

    @Test func anActionForAPoppedIdIsReportedAndNeverReachesANewerElement() async {
      let store = Store(initialState: Drill.State()) { Drill(clock: TestClock()) }
      store.send(.push)
      let popped = store.path.ids[0]
      store.send(.popAll)
      store.send(.push)
      await expectOneFailure(containing: ["received an action for an element that is not on"]) {
        store.send(.path(.element(id: popped, action: .tick)))
      }
      #expect(store.path[0].ticks == 0)
    }

    @Test func aLateActionOfAPoppedElementIsDropped() {
      // The element queues `.tick` with `.send`; the parent pops it and pushes a new one before
      // the tick is reduced.
      let store = Store(initialState: Drill.State()) {
        Drill(clock: TestClock())
        Reduce<Drill.State, Drill.Action> { state, action in
          if case .path(.element(_, .tickSoon)) = action {
            state.path.removeAll()
            state.path.append(Ticker.State())
          }
          return .none
        }
      }
      store.send(.push)
      store.send(.path(.element(id: store.path.ids[0], action: .tickSoon)))
      #expect(store.path.count == 1)
      #expect(store.path[0].ticks == 0)
    }

    @Test func aPopOfAGoneIdAndAPushOfAUsedIdAreReported() async {
      let store = Store(initialState: Drill.State()) { Drill(clock: TestClock()) }
      store.send(.push)
      let id = store.path.ids[0]
      store.send(.popAll)
      await expectOneFailure(containing: ["not on the stack"]) {
        store.send(.path(.popFrom(id: id)))
      }
      await expectOneFailure(containing: ["push with an id the stack has already used"]) {
        store.send(.path(.push(id: id, state: Ticker.State())))
      }
      #expect(store.path.isEmpty)
    }

    @Test func aBoundPathPushesAndPopsAsTheViewWritesIt() {
      let store = Store(initialState: Drill.State()) { Drill(clock: TestClock()) }
      let path = store.binding(path: \.path, action: \.path)
      path.wrappedValue.append(StackPathComponent(Ticker.State(ticks: 1)))
      path.wrappedValue.append(StackPathComponent(Ticker.State(ticks: 2)))
      #expect(Array(store.path) == [Ticker.State(ticks: 1), Ticker.State(ticks: 2)])
      #expect(path.wrappedValue.map(\.id) == Array(store.path.ids))
      path.wrappedValue.removeLast()
      #expect(Array(store.path) == [Ticker.State(ticks: 1)])
      // Back to the root and a new screen, in one write.
      path.wrappedValue = [StackPathComponent(Ticker.State(ticks: 3))]
      #expect(Array(store.path) == [Ticker.State(ticks: 3)])
    }

    @Test func aPathChangeIsAPopFromTheFirstGoneIdThenPushes() {
      let a = StackElementID()
      let b = StackElementID()
      let c = StackElementID()
      let actions: [StackAction<Int, Never>] = StackPathChange.actions(
        from: [a, b], lastID: b,
        to: [StackPathComponent(id: a, state: 1), StackPathComponent(id: c, state: 3)]
      )
      #expect(actions.count == 2)
      guard case .popFrom(let popped) = actions[0], case .push(let pushed, 3) = actions[1] else {
        Issue.record("\(actions)")
        return
      }
      #expect(popped == b && pushed == c)
    }
  }
}
