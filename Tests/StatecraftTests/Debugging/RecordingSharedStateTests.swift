import Foundation
import Testing

@testable import Statecraft

/// A feature whose list is a shared value: the shape of the todos demo, whose list lives in a
/// file.
struct SharedNotes: Reducer {
  struct State: Codable, Equatable, Sendable {
    var lines: Shared<[String]>
    var draft = ""
  }
  enum Action: Codable, Equatable, Sendable {
    case add(String)
    case removeFirst
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let line):
      state.lines.wrappedValue.append(line)
      state.draft = line
    case .removeFirst:
      state.lines.wrappedValue.removeFirst()
    }
    return .none
  }
}

/// A recording, a jump and a change log of a state that holds a shared value see the value it
/// had at each step, not the value it has now.
// NB: in the serialized `Engine` suite: its stores run on the main actor beside the others.
extension Engine {
  @MainActor
  @Suite struct RecordingSharedStateTests {
    func makeStore() -> (
      Store<SharedNotes.State, SharedNotes.Action>, Recorder<SharedNotes.State, SharedNotes.Action>
    ) {
      let initial = SharedNotes.State(lines: Shared(value: ["a"]))
      let recorder = Recorder<SharedNotes.State, SharedNotes.Action>(initialState: initial)
      let store = Store(initialState: initial) { SharedNotes().recording(into: recorder) }
      return (store, recorder)
    }

    @Test func theJSONOfARecordingHoldsEachStepsSharedValue() throws {
      let (store, recorder) = makeStore()
      store.send(.add("b"))
      store.send(.add("c"))
      store.send(.removeFirst)
      let decoded = try Recording<SharedNotes.State, SharedNotes.Action>(
        jsonData: recorder.recording.jsonData())
      #expect(decoded.initialState.lines.wrappedValue == ["a"])
      #expect(
        decoded.checkpoints.map(\.state.lines.wrappedValue) == [
          ["a", "b"], ["a", "b", "c"], ["b", "c"],
        ])
      #expect(decoded.replay(against: SharedNotes()).isReproduced)
    }

    @Test func aJumpPutsTheSharedValueBackToItsValueAtThatStep() {
      let (store, recorder) = makeStore()
      let lines = store.lines
      store.send(.add("b"))
      store.send(.add("c"))
      let recording = recorder.recording
      #expect(store.jump(toStep: 1, in: recording, reducer: SharedNotes()))
      #expect(lines.wrappedValue == ["a", "b"])
      #expect(store.lines.wrappedValue == ["a", "b"])
      #expect(store.draft == "b")
      #expect(store.jump(toStep: 0, in: recording, reducer: SharedNotes()))
      #expect(lines.wrappedValue == ["a"])
      // NB: the store still holds the same shared value: a later write is seen by every holder.
      store.send(.add("z"))
      #expect(lines.wrappedValue == ["a", "z"])
    }

    @Test func aChangeLogShowsTheChangeOfASharedValue() {
      var entries: [ChangeLogEntry] = []
      let store = Store(initialState: SharedNotes.State(lines: Shared(value: ["a"]))) {
        SharedNotes().logChanges(to: ChangeLogSink { entries.append($0) })
      }
      store.send(.add("b"))
      let diff = try? #require(entries.first?.diff)
      #expect(diff?.contains("+     [1]: \"b\"") == true, "\(diff ?? "nil")")
      #expect(diff?.contains("+   draft: \"b\"") == true, "\(diff ?? "nil")")
    }
  }
}

/// The change log's line diff, used for states that hold shared values.
@Suite struct LineDiffTests {
  @Test func twoChangedRegionsAreShownApartWithTheirContext() {
    let old = (1...20).map { "line \($0)" }
    var new = old
    new[4] = "line five"
    new.insert("inserted", at: 15)
    let diff = lineDiff(old.joined(separator: "\n"), new.joined(separator: "\n"))
    #expect(
      diff == """
          line 1
          line 2
          line 3
          line 4
        - line 5
        + line five
          line 6
          line 7
          … (6 unchanged)
          line 14
          line 15
        + inserted
          line 16
          line 17
          … (2 unchanged)
          line 20
        """)
    #expect(lineDiff("same", "same") == nil)
  }
}
