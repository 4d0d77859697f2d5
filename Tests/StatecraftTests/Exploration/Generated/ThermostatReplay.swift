// Exploration (seed 7) found: invariant failed: the target stays within the limit
// The test replays the shrunk session with the exploration's checks: it fails while the
// bug is there, and passes once it is fixed.
import Statecraft
import StatecraftExploration
import Testing

extension Engine.ReplayTests {
  @MainActor
  @Test func thermostatReplay() async {
    await replay(
      initialState: Thermostat.State(target: 0),
      reactor: Thermostat(offByOne: false),
      steps: [
        .send(.up),
        .send(.up),
      ],
      checking: Engine.ReplayTests.thermostat
    )
  }
}
