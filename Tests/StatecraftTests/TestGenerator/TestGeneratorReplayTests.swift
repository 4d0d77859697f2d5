import Foundation
import Testing

@testable import Statecraft

extension Engine {
  /// A session that can't become a test because its recording doesn't replay says why: a state
  /// put back to an earlier step (time travel) is named, and every divergence lists what makes a
  /// replay diverge.
  @MainActor
  @Suite struct TestGeneratorReplayTests {
    @Test func aSessionPutBackToAnEarlierStepNamesThatStep() throws {
      // NB: the session went back to step 1 before its third action: the recording holds the
      // actions only, so the replay adds to the state of step 2.
      func state(_ count: Int) -> Pad.State { Pad.State(count: count) }
      let recording = Recording<Pad.State, Pad.Action>(
        initialState: state(0), actions: [.increment, .increment, .increment],
        checkpoints: [
          .init(step: 1, state: state(1)), .init(step: 2, state: state(2)),
          .init(step: 3, state: state(2)),
        ],
        stateInterval: 1)
      let divergence = try #require(
        recording.replay(against: Pad(clock: ContinuousClock())).divergence)
      #expect(divergence.step == 3)
      #expect(divergence.stepPutBackTo == 1)
      #expect(
        divergence.description.contains(
          "The recorded state is what this action makes of the state of step 1: the session was "
            + "probably put back at step 1 (time travel) before it, and a recording holds actions "
            + "only."))
      #expect(divergence.description.hasSuffix(ReplayDivergence<Pad.State, Pad.Action>.reasons))
    }

    @Test func aDivergenceWithoutAnExplainingStepListsTheLikelyCauses() throws {
      let recording = Recording<Pad.State, Pad.Action>(
        initialState: Pad.State(), actions: [.increment],
        checkpoints: [.init(step: 1, state: Pad.State(count: 5))], stateInterval: 1)
      let divergence = try #require(
        recording.replay(against: Pad(clock: ContinuousClock())).divergence)
      #expect(divergence.stepPutBackTo == nil)
      #expect(!divergence.description.contains("put back"))
      for cause in [
        "a time-travel jump", "a shared value written from outside", "the clock, a random number",
        "the reducer changed since the session was recorded", "the recording was edited",
      ] {
        #expect(divergence.description.contains(cause))
      }
    }

    /// A recording read from JSON holds shared values of its own: trying the earlier steps puts
    /// them back, and the replay leaves the recording as it was.
    @Test func aJumpOverASharedValueIsNamedAndTheReplayLeavesTheRecordingAsItWas() throws {
      let recorder = RecorderOf<Locker>(
        initialState: Locker.State(box: Shared(value: Locker.Box())))
      let store = Store(initialState: recorder.initialState) { Locker() }
      store.record(into: recorder)
      store.send(.put("a"))
      store.send(.put("b"))
      store.jump(toStep: 1, in: recorder.recording, reducer: Locker())
      store.send(.put("c"))
      #expect(store.box.names == ["a", "c"])

      let recording = try RecordingOf<Locker>(jsonData: recorder.recording.jsonData())
      let imported = recording.replay(against: Locker())
      #expect(imported.divergence?.step == 3)
      #expect(imported.divergence?.stepPutBackTo == 1)
      #expect(recording.initialState.box.names == [])
      #expect(recording.storedState(at: 1)?.box.names == ["a"])
      #expect(recording.replay(against: Locker()).divergence?.stepPutBackTo == 1)
    }
  }
}
