import Clocks
import CounterFeature
import Statecraft
import StatecraftTesting
import Testing

extension Engine {
  @MainActor @Suite struct CounterReactorTests {
    let clock = TestClock()

    func makeStore(count: Int = 0) -> TestStore<
      CounterReactor.State, CounterReactor.Action, CounterReactor.Mutation
    > {
      TestStore(
        initialState: CounterReactor.State(count: count),
        reactor: CounterReactor(facts: .inProcess(clock: clock, latency: .seconds(1))))
    }

    @Test func countingStaysWithinTheBoundsAndTheAlertRepeats() async {
      let store = makeStore()
      await store.send(.increment) { $0.count = 1 }
      await store.send(.decrement) { $0.count = 0 }
      await store.send(.decrement) {
        $0.alert = CounterReactor.alert("The counter doesn't go below 0.")
      }
      // NB: the same message again is a new pulse: a view shows the alert again.
      await store.send(.decrement) {
        $0.alert = CounterReactor.alert("The counter doesn't go below 0.")
      }
      await store.finish()
    }

    @Test func theAlertPulseFiresForEachAssignmentEvenWhenItRepeats() async {
      let store = Store(
        initialState: CounterReactor.State(count: CounterReactor.range.upperBound),
        reactor: CounterReactor(facts: .inProcess(clock: clock)))
      var alerts: [String] = []
      let subscriber = AlertSubscriber { alerts.append($0) }
      store.subscribe(subscriber)
      store.send(.increment)
      store.send(.increment)
      store.send(.decrement)
      #expect(alerts == ["The counter stops at 20.", "The counter stops at 20."])
      #expect(store.count == 19)
    }

    @Test func aFactLoadsAfterTheServicesLatency() async {
      let store = makeStore(count: 7)
      await store.send(.factTapped) { $0.fact = .loading(previous: nil) }
      await clock.advance(by: .seconds(1))
      await store.receive(.fact(.finished(.success("7 is a prime.")))) {
        $0.fact = .success("7 is a prime.")
      }
      await store.finish()
    }

    @Test func aFactCanBeCancelledWhileItLoads() async {
      let store = makeStore(count: 4)
      await store.send(.cancelFactTapped) { $0.alert = CounterReactor.alert("No fact is loading.") }
      await store.send(.factTapped) { $0.fact = .loading(previous: nil) }
      await store.send(.cancelFactTapped) { $0.fact = .idle }
      await clock.run()
      await store.finish()
    }

    @Test func changingTheNumberCancelsTheFactInFlightAndClearsAStaleOne() async {
      let store = makeStore(count: 4)
      await store.send(.factTapped) { $0.fact = .loading(previous: nil) }
      await store.send(.increment) {
        $0.count = 5
        $0.fact = .idle
      }
      await clock.run()
      await store.send(.factTapped) { $0.fact = .loading(previous: nil) }
      await clock.advance(by: .seconds(1))
      await store.receive(.fact(.finished(.success("5 is a prime.")))) {
        $0.fact = .success("5 is a prime.")
      }
      await store.send(.decrement) {
        $0.count = 4
        $0.fact = .idle
      }
      await store.finish()
    }

    @Test func factsAreTrueStatementsAboutTheNumber() {
      #expect(FactsService.fact(about: 2) == "2 is the only even prime.")
      #expect(FactsService.fact(about: 13) == "13 is a prime.")
      #expect(FactsService.fact(about: 9) == "9 is the square of 3.")
      #expect(FactsService.fact(about: 12) == "12 is even and has 6 divisors.")
      #expect(FactsService.fact(about: 15) == "15 is odd and has 4 divisors.")
      #expect(FactsService.fact(about: 20) == "20 is even and has 6 divisors.")
    }

    /// A fact is asked of any number, not only of the counter's range: a negative one trapped
    /// (`2..<number`) and a huge one took minutes.
    @Test func aFactIsToldOfAnyNumberAtOnce() {
      #expect(FactsService.fact(about: -5) == "-5 is negative.")
      #expect(FactsService.fact(about: .min) == "\(Int.min) is negative.")
      #expect(FactsService.fact(about: .max) == "\(Int.max) is odd and above a trillion.")
      #expect(FactsService.fact(about: 999_999_999_989) == "999999999989 is a prime.")
      #expect(
        FactsService.fact(about: 1_000_000_000_000) == "1000000000000 is the square of 1000000.")
    }
  }
}

@MainActor
private final class AlertSubscriber: StateSubscriber {
  let onAlert: (String) -> Void
  init(onAlert: @escaping (String) -> Void) { self.onAlert = onAlert }
  func state(_ state: CounterReactor.State) {
    state.$alert.updated { if let alert = $0 { onAlert(String(state: alert.title)) } }
  }
}
