import StatecraftExploration
import Testing

@MainActor
@Test func theCountIsNeverNegative() async {
  await explore(
    initialState: Counter.State(),
    reducer: { Counter(fact: { number in "\(number) is a good number." }) },
    actions: .weighted([
      (3, .constant(.incrementButtonTapped)),
      (2, .constant(.decrementButtonTapped)),
      (1, .constant(.factButtonTapped)),
    ]),
    options: ExplorationOptions(seed: 1, sessions: 200)
  ) { state in
    try invariant(state.count >= 0, "the count is never negative")
  }
}
