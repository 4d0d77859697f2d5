import StatecraftTesting
import Testing

@MainActor
@Test func counting() async {
  let store = TestStore(initialState: Counter.State()) {
    Counter(fact: { number in "\(number) is a good number." })
  }
  await store.send(.incrementButtonTapped) { $0.count = 1 }
  await store.send(.decrementButtonTapped) { $0.count = 0 }
}

@MainActor
@Test func loadingAFact() async {
  let store = TestStore(initialState: Counter.State()) {
    Counter(fact: { number in "\(number) is a good number." })
  }
  await store.send(.factButtonTapped)
  await store.receive(.factResponse("0 is a good number.")) {
    $0.fact = "0 is a good number."
  }
  await store.finish()  // fails if an effect still runs or an action was not asserted
}
