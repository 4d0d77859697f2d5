// Exploration (seed 1) found: invariant failed: the selection is an item of the list
// The test replays the shrunk session with the exploration's checks: it fails while the
// bug is there, and passes once it is fixed.
import Statecraft
import StatecraftExploration
import Testing

extension Engine.ReplayTests {
  @MainActor
  @Test func pickerReplay() async {
    await replay(
      initialState: Picker.State(items: [], selection: nil),
      reducer: { Picker(offByOne: false) },
      steps: [.send(.select(0))],
      checking: Engine.ReplayTests.picker
    )
  }
}
