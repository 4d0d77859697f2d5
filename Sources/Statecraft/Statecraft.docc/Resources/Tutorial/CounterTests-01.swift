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
