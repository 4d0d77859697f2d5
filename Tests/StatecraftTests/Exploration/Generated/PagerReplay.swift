// Exploration (seed 11) found: invariant failed: the pages are 1, 2, 3… in order
// The test replays the shrunk session with the exploration's checks: it fails while the
// bug is there, and passes once it is fixed.
import Statecraft
import StatecraftExploration
import Testing

extension Engine.ReplayTests {
  @MainActor
  @Test func pagerReplay() async {
    await replay(
      initialState: Pager.State(pages: [], request: nil),
      system: Pager(resetForgetsRequest: false),
      steps: [
        .send(.nextPage),
        .advanceClock(by: .milliseconds(100), order: 0),
        .send(.nextPage),
        .send(.reset),
        .advanceClock(by: .milliseconds(100), order: 0),
      ],
      checking: Engine.ReplayTests.pager
    )
  }
}
