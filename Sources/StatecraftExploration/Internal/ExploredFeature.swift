import Statecraft

/// A feature of any idiom, as exploration drives it: a store of its actions.
@MainActor
struct ExploredFeature<State, Action> {
  /// A new store of the feature on `state`, made with the dependency values in force.
  let makeStore: (State) -> Store<State, Action>
  /// Whether the store runs a feedback loop, which `store.run()` starts.
  let runsLoop: Bool
  /// Records the store into a recorder, where the idiom can become a generated test.
  let record: ((Store<State, Action>, Recorder<State, Action>) -> Void)?
}
