import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct PulseTests {
    struct Alerts: Reducer {
      struct State: Equatable, Sendable {
        @Pulse var alert: String?
        var count = 0
      }
      enum Action: Sendable {
        case alert(String)
        case increment
        case alertTwice(String)
      }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .alert(let message):
          state.alert = message
        case .increment:
          state.count += 1
        case .alertTwice(let message):
          state.alert = message
          state.alert = message
        }
        return .none
      }
    }

    @Test func assigningAnEqualValueIsANewPulse() {
      var state = Alerts.State()
      #expect(state.$alert.version == 0)
      state.alert = "Saved"
      let first = state
      state.alert = "Saved"
      #expect(state.$alert.version == 2)
      #expect(state != first)
    }

    @Test func aPulseIsAValue() {
      var original = Alerts.State()
      var copy = original
      copy.alert = "copy"
      #expect(original.alert == nil)
      #expect(original.$alert.version == 0)
      original.alert = "original"
      #expect(copy.alert == "copy")
    }

    @Test func pulsesEmitForEveryAssignmentEqualValuesIncludedNeverForUnrelatedChanges() async {
      let store = Store(initialState: Alerts.State()) { Alerts() }
      var alerts = store.pulses(\.$alert).makeAsyncIterator()
      store.send(.alert("Saved"))
      #expect(await alerts.next() == "Saved")
      store.send(.increment)
      store.send(.alert("Saved"))
      #expect(await alerts.next() == "Saved")
      store.send(.alertTwice("Twice"))
      store.send(.increment)
      store.send(.alert("Last"))
      // Both assignments of one action are events.
      #expect(await alerts.next() == "Twice")
      #expect(await alerts.next() == "Twice")
      #expect(await alerts.next() == "Last")
    }

    final class Saver: Reactor {
      enum Action: Sendable { case save }
      enum Mutation: Sendable { case setMessage(String) }
      struct State: Sendable { @Pulse var message: String? }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        .concatenate(.send(.setMessage("Saving")), .send(.setMessage("Saved")))
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setMessage(let message): state.message = message
        }
      }
    }

    @Test func everyPulseAMutateSendsInOneSendReachesTheReader() async {
      var store: ReactorStoreOf<Saver>? = Store(initialState: Saver.State(), reactor: Saver())
      let messages = store!.pulses(\.$message)
      store?.send(.save)
      store?.send(.save)
      store = nil
      #expect(await Array(messages) == ["Saving", "Saved", "Saving", "Saved"])
    }

    @Test func aReplacedPulseCountsAsOneAssignment() async {
      var store: StoreOf<Alerts>? = Store(initialState: Alerts.State()) { Alerts() }
      let alerts = store!.pulses(\.$alert)
      store?.send(.alert("1"))
      var replaced = Alerts.State()
      replaced.alert = "new"
      _ = store?.core.replaceState(replaced)
      store = nil
      #expect(await Array(alerts) == ["1", "new"])
    }

    @Test func everyPulseOfBackToBackBatchesReachesASlowReader() async {
      var store: StoreOf<Alerts>? = Store(initialState: Alerts.State()) { Alerts() }
      let alerts = store!.pulses(\.$alert)
      store?.send(.alert("1"))
      store?.send(.alert("2"))
      store?.send(.alert("3"))
      // Releasing the store ends the stream after what it buffered.
      store = nil
      #expect(await Array(alerts) == ["1", "2", "3"])
    }

    @Test func aPulseStreamKeepsItsNewestUnreadPulsesUpToItsLimit() async {
      var store: StoreOf<Alerts>? = Store(initialState: Alerts.State()) { Alerts() }
      let alerts = store!.pulses(\.$alert, bufferingLimit: 2)
      for index in 1...5 { store?.send(.alert("\(index)")) }
      store = nil
      // Past the limit, the oldest unread pulses were dropped.
      #expect(await Array(alerts) == ["4", "5"])
    }

    @Test func theDefaultPulseBufferKeepsAHundredUnreadPulses() async {
      var store: StoreOf<Alerts>? = Store(initialState: Alerts.State()) { Alerts() }
      let alerts = store!.pulses(\.$alert)
      for index in 1...101 { store?.send(.alert("\(index)")) }
      store = nil
      #expect(await Array(alerts) == (2...101).map { "\($0)" })
    }

    @Test func pulsesDoNotEmitAtSubscription() async {
      var state = Alerts.State()
      state.alert = "old"
      let store = Store(initialState: state) { Alerts() }
      var alerts = store.pulses(\.$alert).makeAsyncIterator()
      store.send(.increment)
      store.send(.alert("new"))
      #expect(await alerts.next() == "new")
    }

    @Test func observersOfThePulseAreNotifiedOnEqualAssignments() {
      let store = Store(initialState: Alerts.State()) { Alerts() }
      store.send(.alert("Saved"))
      var seen: [UInt64] = []
      let token = store.observe { store in seen.append(store.$alert.version) }
      store.send(.alert("Saved"))
      store.send(.increment)
      #expect(seen == [1, 2])
      token.cancel()
    }

    final class AlertPresenter: StateSubscriber {
      var shown: [String?] = []
      func state(_ state: Alerts.State) {
        state.$alert.updated { self.shown.append($0) }
      }
    }

    @Test func updatedRunsOnlyForPulsesAssignedSinceTheSubscriberLastSawThem() {
      var initial = Alerts.State()
      initial.alert = "before subscribing"
      let store = Store(initialState: initial) { Alerts() }
      let presenter = AlertPresenter()
      store.subscribe(presenter)
      #expect(presenter.shown == [])
      store.send(.increment)
      #expect(presenter.shown == [])
      store.send(.alert("Saved"))
      store.send(.alert("Saved"))
      store.send(.increment)
      #expect(presenter.shown == ["Saved", "Saved"])
    }

    @Test func updatedOutsideASubscriberRunsWhenEverAssigned() {
      var state = Alerts.State()
      var runs = 0
      state.$alert.updated { _ in runs += 1 }
      #expect(runs == 0)
      state.alert = "x"
      state.$alert.updated { _ in runs += 1 }
      #expect(runs == 1)
    }
  }
}

extension Array {
  /// Every element of `sequence`, once it has ended.
  fileprivate init<S: AsyncSequence>(_ sequence: S) async
  where S.Element == Element, S.Failure == Never {
    var elements: [Element] = []
    for await element in sequence { elements.append(element) }
    self = elements
  }
}
