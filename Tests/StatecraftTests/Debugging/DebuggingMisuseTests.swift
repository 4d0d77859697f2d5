import Testing

@testable import Statecraft

/// The debugging tools' entries in the misuse catalogue (`Reliability/MisuseTests.swift`).
extension Engine.MisuseTests {
  @Test func aJumpToAStepTheRecordingDoesNotHave() async {
    let recorder = Recorder<Tally.State, Tally.Action>(initialState: Tally.State())
    let store = Store(initialState: recorder.initialState) { Tally().recording(into: recorder) }
    store.send(.add(1))
    let recording = recorder.recording
    await expectOneFailure(containing: ["step 2 of a recording of 1 steps", "0 (the initial"]) {
      #expect(!store.jump(toStep: 2, in: recording, reducer: Tally()))
    }
    #expect(store.count == 1)
  }

  @Test func aJumpOnAScopedStore() async {
    struct Parent: Equatable { var tally = Tally.State() }
    let recording = Recorder<Tally.State, Tally.Action>(initialState: Tally.State()).recording
    let store = Store(initialState: Parent()) { EmptyReducer<Parent, Tally.Action>() }
    let child = store.scope(state: \.tally, action: { (action: Tally.Action) in action })
    await expectOneFailure(containing: ["made by 'scope'", "Jump the root store"]) {
      #expect(!child.jump(toStep: 0, in: recording, reducer: Tally()))
    }
  }

  @Test func aRecorderWhoseInitialStateIsNotTheStores() async {
    let recorder = Recorder<Tally.State, Tally.Action>(initialState: Tally.State())
    let store = Store(initialState: Tally.State(count: 5)) { Tally().recording(into: recorder) }
    await expectOneFailure(containing: [
      "other than the recorder's initial state", "recorder.initialState",
    ]) {
      store.send(.add(1))
    }
    store.send(.add(1))  // reported once, at the first action only
  }

  @Test func aRecorderStoringTheStateEveryZeroActions() async {
    await expectOneFailure(containing: ["every 0 actions", "at least 1"]) {
      let recorder = Recorder<Tally.State, Tally.Action>(
        initialState: Tally.State(), storingStateEvery: 0)
      #expect(recorder.stateInterval == 1)
    }
  }
}
