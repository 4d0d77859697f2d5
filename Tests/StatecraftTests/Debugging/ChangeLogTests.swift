import Foundation
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct ChangeLogTests {
    @Test func logsEachActionWithTheDiffItCaused() {
      var text = ""
      let store = Store(initialState: Tally.State()) {
        Tally().logChanges(to: .text { text += $0 })
      }
      store.send(.add(2))
      #expect(
        text == """
          received action:
            Tally.Action.add(2)
            Tally.State(
          -   count: 0,
          +   count: 2,
              notes: []
            )

          """)
    }

    @Test func saysSoWhenAnActionChangesNothing() {
      var text = ""
      let store = Store(initialState: Tally.State()) {
        Tally().logChanges(to: .text { text += $0 })
      }
      store.send(.add(0))
      #expect(
        text == """
          received action:
            Tally.Action.add(0)
            (no state changes)

          """)
    }

    @Test func standardErrorFormatsAsTheTextSink() {
      // NB: the standard error sink is the text sink writing to standard error; its formatting
      // is what `ChangeLogEntry.description` produces.
      let entry = ChangeLogEntry(action: "A.b", diff: "- x\n+ y")
      var text = ""
      ChangeLogSink.text { text += $0 }.write(entry)
      #expect(text == entry.description)
      #expect(entry.description == "received action:\n  A.b\n- x\n+ y\n")
    }

    @Test func filterSkipsNoisyActions() {
      var entries: [ChangeLogEntry] = []
      let store = Store(initialState: Tally.State()) {
        Tally().logChanges(to: ChangeLogSink { entries.append($0) }) { action in
          if case .note = action { return false }
          return true
        }
      }
      store.send(.note("noise"))
      store.send(.add(1))
      store.send(.note("more noise"))
      #expect(entries.map(\.action) == ["Tally.Action.add(1)"])
      #expect(store.notes == ["noise", "more noise"])
    }

    @Test func logsTheActionsThatEffectsSend() async {
      var entries: [ChangeLogEntry] = []
      let store = Store(initialState: Tally.State()) {
        Tally().logChanges(to: ChangeLogSink { entries.append($0) })
      }
      await store.send(.fetch).finish()
      #expect(
        entries.map(\.action) == [
          "Tally.Action.fetch", "Tally.Action.fetched(100)", #"Tally.Action.note("fetched")"#,
        ])
      #expect(entries.map { $0.diff == nil } == [true, false, false])
    }

    @Test func fileSinkAppendsToTheFile() throws {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("statecraft-changelog-\(UUID().uuidString).log")
      defer { try? FileManager.default.removeItem(at: url) }
      try Data("earlier\n".utf8).write(to: url)
      let sink = try ChangeLogSink.file(at: url)
      let store = Store(initialState: Tally.State()) { Tally().logChanges(to: sink) }
      store.send(.add(0))
      store.send(.add(0))
      let written = try String(contentsOf: url, encoding: .utf8)
      let entry = "received action:\n  Tally.Action.add(0)\n  (no state changes)\n"
      #expect(written == "earlier\n" + entry + entry)
    }

    @Test func fileSinkThrowsForAFolderThatDoesNotExist() {
      let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/changes.log")
      #expect(throws: (any Error).self) { try ChangeLogSink.file(at: url) }
    }
  }
}
