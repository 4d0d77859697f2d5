// Exploration (seed 3) found: invariant failed: with nothing in flight, the latest version is shown
// The test replays the shrunk session with the exploration's checks: it fails while the
// bug is there, and passes once it is fixed.
import Statecraft
import StatecraftExploration
import Testing

extension Engine.ReplayTests {
  @MainActor
  @Test func refresherReplay() async {
    await replay(
      initialState: Refresher.State(version: 0, shown: 0, inFlight: 0),
      reducer: { Refresher(cancelsInFlight: true) },
      steps: [
        .send(.refresh),
        .send(.refresh),
        .advanceClock(by: .seconds(1), order: 61),
      ],
      checking: Engine.ReplayTests.refresher
    )
  }
}
