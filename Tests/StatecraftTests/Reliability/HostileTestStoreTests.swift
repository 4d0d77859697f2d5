import Clocks
import ConcurrencyExtras
import IdentifiedCollections
import StatecraftCombine
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The same hostile cases seen through a `TestStore`: what a live store drops, a test store
  /// never asks the test to receive, and what it delivers, it asks for in order.
  @MainActor
  @Suite struct HostileTestStoreTests {
    @Test func aChildsValuesQueuedDuringItsSubscriptionAreNeverReceivedByItsSuccessor() async {
      let store = TestStore(initialState: Switchboard.State(child: Listener.State(id: 1))) {
        Switchboard()
      }
      await store.send(.child(.listen))
      await store.receive(.child(.heard(1))) {
        $0.child = Listener.State(id: 101)
      }
      await store.finish()
    }

    @Test func aRowsValuesQueuedDuringItsSubscriptionAreNeverReceivedAfterItsRemoval() async {
      let store = TestStore(
        initialState: Switchboard.State(rows: [Listener.State(id: 1), Listener.State(id: 2)])
      ) {
        Switchboard()
      }
      await store.send(.rows(.element(id: 2, action: .listen)))
      await store.receive(.rows(.element(id: 2, action: .heard(1)))) {
        $0.rows = [Listener.State(id: 1)]
      }
      await store.finish()
    }

    @Test func everyValueOfASynchronousPublisherIsReceivedInOrder() async {
      let store = TestStore(initialState: Listener.State(id: 1)) { Listener() }
      await store.send(.listen)
      await store.receive(.heard(1)) { $0.heard = [1] }
      await store.receive(.heard(2)) { $0.heard = [1, 2] }
      await store.receive(.heard(3)) { $0.heard = [1, 2, 3] }
      await store.finish()
    }

    @Test func anIfLetChildReplacedAHundredTimesInOneBatchLeavesOneEffectToReceive() async {
      let clock = TestClock()
      let store = TestStore(initialState: Director.State()) { Director(clock: clock) }
      store.exhaustivity = .off
      await store.send(.showAndLoad(1, upTo: 100))
      await store.skipReceivedActions()
      store.exhaustivity = .on
      await clock.run()
      await store.receive(.holder(.child(.loaded(100)))) {
        $0.holder.child?.loaded = 100
      }
      await store.finish()
    }

    @Test func aRowRemovedMidDebounceLeavesNothingInFlight() async {
      let clock = TestClock()
      let store = TestStore(
        initialState: Household.State(rows: [Kid.State(id: 1), Kid.State(id: 2)])
      ) {
        Household(clock: clock)
      }
      await store.send(.rows(.element(id: 1, action: .search)))
      await store.send(.rows(.element(id: 2, action: .search)))
      await clock.advance(by: .milliseconds(500))
      await store.send(.removeRow(1)) {
        $0.rows = [Kid.State(id: 2)]
      }
      await clock.run()
      await store.receive(.rows(.element(id: 2, action: .searched))) {
        $0.rows[id: 2]?.log = ["searched"]
      }
      await store.finish()
    }

    @Test func aChildDismissedWithAHeldBackThrottleLeavesNothingInFlight() async {
      let clock = TestClock()
      let store = TestStore(initialState: Household.State(child: Kid.State(id: 1))) {
        Household(clock: clock)
      }
      await store.send(.child(.tap(1)))
      await store.receive(.child(.tapped(1))) { $0.child?.log = ["tapped 1"] }
      await store.send(.child(.tap(2)))
      await store.send(.dismiss) { $0.child = nil }
      await clock.run()
      await store.finish()
    }

    @Test func taskCancelFromAChildEffectLeavesTheParentsTimerToReceive() async {
      let clock = TestClock()
      let store = TestStore(initialState: Household.State(child: Kid.State(id: 1))) {
        Household(clock: clock)
      }
      await store.send(.startTimer)
      await store.send(.child(.startTimer))
      await store.send(.child(.cancelTimerFromEffect))
      await clock.run()
      await store.receive(.tick) { $0.log = ["tick"] }
      await store.finish()
    }

    @Test func nestedRowsRemovedAtEachLevelLeaveNothingInFlight() async {
      let clock = TestClock()
      var initial = Director.State()
      initial.groups = [
        Director.Group.State(
          id: 1,
          detail: Director.Detail.State(items: [Pinger.State(id: 10), Pinger.State(id: 11)])),
        Director.Group.State(id: 2, detail: Director.Detail.State(items: [Pinger.State(id: 20)])),
      ]
      let store = TestStore(initialState: initial) { Director(clock: clock) }
      for (group, item) in [(1, 10), (1, 11), (2, 20)] {
        await store.send(
          .groups(.element(id: group, action: .detail(.items(.element(id: item, action: .load))))))
      }
      await store.send(.removeItem(group: 1, item: 10)) {
        $0.groups[id: 1]?.detail?.items = [Pinger.State(id: 11)]
      }
      await store.send(.dismissDetail(group: 1)) { $0.groups[id: 1]?.detail = nil }
      await store.send(.removeGroup(2)) { $0.groups.remove(id: 2) }
      await clock.run()
      await store.finish()
    }
    @Test func twoHundredActionsFromOneEffectAreReceivedInOrder() async {
      let store = TestStore(initialState: [Int]()) {
        Reduce<[Int], Int> { state, value in
          guard value >= 0 else {
            return .run { send in
              for value in 0..<200 { await send(value) }
            }
          }
          state.append(value)
          return .none
        }
      }
      await store.send(-1)
      for value in 0..<200 {
        await store.receive(value) { $0.append(value) }
      }
      await store.finish()
    }
  }
}
