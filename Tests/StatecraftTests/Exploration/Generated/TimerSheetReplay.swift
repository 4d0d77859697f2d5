// Exploration (seed 5) found: 1 effect was still running
// The test replays the shrunk session with the exploration's checks: it fails while the
// bug is there, and passes once it is fixed.
import Statecraft
import StatecraftExploration
import Testing

extension Engine.ReplayTests {
  @MainActor
  @Test func timerSheetReplay() async {
    await replay(
      initialState: TimerSheet.State(child: nil),
      reducer: { TimerSheet(timerOutlivesChild: false) },
      steps: [.send(.open)],
      sessionEnd: .teardown([.close]),
      checking: Engine.ReplayTests.noInvariants
    )
  }
}
