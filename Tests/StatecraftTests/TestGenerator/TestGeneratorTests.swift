import Clocks
import Foundation
import IdentifiedCollections
import StatecraftTestGenerator
import Testing
import TodosFeature

@testable import Statecraft

extension Engine {
  /// The test generator: values as Swift source, the smallest mutations, and whole tests whose
  /// output is compiled and run in this target (GeneratedPadSessionTests.swift,
  /// GeneratedTodosSessionTests.swift).
  @MainActor
  @Suite struct TestGeneratorTests {
    // MARK: - Values as source

    @Test func stringsAreQuotedWithQuotesLineBreaksAndControlsEscaped() {
      #expect(TestGenerator.swiftSource("plain") == #""plain""#)
      #expect(TestGenerator.swiftSource("Say \"hi\"\\") == #""Say \"hi\"\\""#)
      #expect(TestGenerator.swiftSource("a\nb\r\tc\0") == #""a\nb\r\tc\0""#)
      #expect(TestGenerator.swiftSource("bell\u{7} rtl\u{202E}") == #""bell\u{7} rtl\u{202e}""#)
      #expect(TestGenerator.swiftSource("ünï 日本 🎉👩‍👩‍👧") == #""ünï 日本 🎉👩\u{200d}👩\u{200d}👧""#)
      #expect(TestGenerator.swiftSource("") == #""""#)
    }

    @Test func enumsPrintAsCasesWithTheirPayloads() {
      #expect(TestGenerator.swiftSource(Pad.Action.increment) == ".increment")
      #expect(TestGenerator.swiftSource(Pad.Action.rename("x")) == #".rename("x")"#)
      #expect(TestGenerator.swiftSource(Pad.Action.toggle(id: 3)) == ".toggle(id: 3)")
      #expect(TestGenerator.swiftSource(Pad.Action.addRow(1, "a")) == #".addRow(1, "a")"#)
      #expect(
        TestGenerator.swiftSource(Pad.Action.finished("ok", code: 2))
          == #".finished("ok", code: 2)"#)
      #expect(TestGenerator.swiftSource(Pad.Action.write(nil)) == ".write(nil)")
      #expect(TestGenerator.swiftSource(Pad.Action.write("a")) == #".write("a")"#)
      #expect(TestGenerator.swiftSource(Pad.Action.tag("k", nil)) == #".tag("k", nil)"#)
      #expect(TestGenerator.swiftSource(Described.plain) == ".plain")
      #expect(TestGenerator.swiftSource([Described.plain]) == "[.plain]")
    }

    @Test func structsNameTheirTypesInFullAndCollectionsAreLiterals() {
      #expect(
        TestGenerator.swiftSource(Pad.Row(id: 1, name: "a"))
          == #"Pad.Row(id: 1, name: "a", isOn: false)"#)
      let rows: IdentifiedArrayOf<Pad.Row> = [Pad.Row(id: 2, name: "b", isOn: true)]
      #expect(TestGenerator.swiftSource(rows) == #"[Pad.Row(id: 2, name: "b", isOn: true)]"#)
      #expect(TestGenerator.swiftSource([1, 2]) == "[1, 2]")
      #expect(TestGenerator.swiftSource([String: Int]()) == "[:]")
      #expect(TestGenerator.swiftSource(["k": 1]) == #"["k": 1]"#)
      #expect(TestGenerator.swiftSource(["b": 2, "a": 1, "c": 3]) == #"["a": 1, "b": 2, "c": 3]"#)
      #expect(TestGenerator.swiftSource(Optional<Int>.none as Any) == "nil")
      #expect(TestGenerator.swiftSource(-2.5) == "-2.5")
      #expect(TestGenerator.swiftSource(Duration.milliseconds(150)) == ".milliseconds(150)")
      #expect(
        TestGenerator.swiftSource(Pad.Draft(text: "t", words: 1))
          == #"Pad.Draft(text: "t", words: 1)"#)
    }

    // MARK: - The smallest mutations

    @Test func aRowOfAnIdentifiedArrayIsMutatedByIDAndAFieldByName() {
      var before = Pad.State()
      before.rows = [Pad.Row(id: 1, name: "a"), Pad.Row(id: 3, name: "c")]
      var after = before
      after.rows[id: 3]?.isOn = true
      after.count = 2
      #expect(
        TestGenerator.mutations(from: before, to: after) == [
          "$0.count = 2", "$0.rows[id: 3]?.isOn = true",
        ])
    }

    @Test func rowsRemovedAndAddedBecomeRemoveAndAppend() {
      var before = Pad.State()
      before.rows = [Pad.Row(id: 1, name: "a"), Pad.Row(id: 2, name: "b")]
      var after = before
      after.rows.remove(id: 1)
      after.rows.append(Pad.Row(id: 5, name: "e"))
      after.rows[id: 2]?.name = "B"
      #expect(
        TestGenerator.mutations(from: before, to: after) == [
          "$0.rows.remove(id: 1)", #"$0.rows[id: 2]?.name = "B""#,
          #"$0.rows.append(Pad.Row(id: 5, name: "e", isOn: false))"#,
        ])
    }

    @Test func arraysGrowAndShrinkAtTheirEndsAndChangeByIndex() {
      let before = Pad.State(log: ["a", "b", "c", "d"])
      #expect(
        TestGenerator.mutations(from: before, to: Pad.State(log: ["a", "b", "c", "d", "e"]))
          == [#"$0.log.append("e")"#])
      #expect(
        TestGenerator.mutations(from: before, to: Pad.State(log: ["a", "b", "c", "d", "e", "f"]))
          == [#"$0.log.append(contentsOf: ["e", "f"])"#])
      #expect(
        TestGenerator.mutations(from: before, to: Pad.State(log: ["a", "b"]))
          == ["$0.log.removeLast(2)"])
      #expect(
        TestGenerator.mutations(from: before, to: Pad.State(log: ["b", "c", "d"]))
          == ["$0.log.removeFirst()"])
      #expect(
        TestGenerator.mutations(from: before, to: Pad.State(log: ["a", "c", "d"]))
          == ["$0.log.remove(at: 1)"])
      #expect(
        TestGenerator.mutations(from: before, to: Pad.State(log: ["a", "x", "c", "d"]))
          == [#"$0.log[1] = "x""#])
      #expect(
        TestGenerator.mutations(from: before, to: Pad.State(log: ["w", "x", "y", "d"]))
          == [#"$0.log = ["w", "x", "y", "d"]"#])
      #expect(TestGenerator.mutations(from: before, to: before).isEmpty)
    }

    @Test func optionalsAndEnumsAndDictionaries() {
      let empty = Pad.State()
      let drafted = Pad.State(draft: Pad.Draft(text: "a", words: 1))
      #expect(
        TestGenerator.mutations(from: empty, to: drafted)
          == [#"$0.draft = Pad.Draft(text: "a", words: 1)"#])
      #expect(
        TestGenerator.mutations(from: drafted, to: Pad.State(draft: Pad.Draft(text: "b", words: 1)))
          == [#"$0.draft?.text = "b""#])
      #expect(TestGenerator.mutations(from: drafted, to: empty) == ["$0.draft = nil"])
      #expect(
        TestGenerator.mutations(from: empty, to: Pad.State(status: .done("ok", code: 1)))
          == [#"$0.status = .done("ok", code: 1)"#])
      #expect(
        TestGenerator.mutations(
          from: Pad.State(tags: ["a": 1, "b": 2]), to: Pad.State(tags: ["b": 3]))
          == [#"$0.tags["a"] = nil"#, #"$0.tags["b"] = 3"#])
    }

    @Test func aSharedValueIsMutatedThroughItsReferenceNeverReplaced() {
      let before = Locker.State(box: Shared(value: Locker.Box(count: 1, names: ["a"])))
      let grown = Locker.State(box: Shared(value: Locker.Box(count: 2, names: ["a", "b"])))
      #expect(
        TestGenerator.mutations(from: before, to: grown) == [
          "$0.box.count = 2", #"$0.box.names.append("b")"#,
        ])
      let emptied = Locker.State(box: Shared(value: Locker.Box()))
      #expect(
        TestGenerator.mutations(from: before, to: emptied) == [
          "$0.box.count = 0", "$0.box.names = []",
        ])
      #expect(
        TestGenerator.swiftSource(before)
          == #"Locker.State(box: Shared(value: Locker.Box(count: 1, names: ["a"])), label: "")"#)
    }

    // MARK: - Whole tests

    @Test func sentActionsAreSentAndEffectActionsReceived() async {
      let clock = TestClock()
      let recorder = RecorderOf<Pad>(initialState: Pad.State(), clock: clock)
      let store = Store(initialState: recorder.initialState) { Pad(clock: clock) }
      store.record(into: recorder)
      store.send(.removeRow(id: 4))
      store.send(.increment)
      let source = TestGenerator.generate(
        from: recorder.recording,
        configuration: TestGenerator.Configuration(
          reducer: "Pad(clock: clock)", testName: "removing",
          initialState: .expression("Pad.State()"), clock: TestGenerator.Clock(name: "clock")))
      #expect(
        source == """
          // Generated by StatecraftTestGenerator from a recorded session of 3 steps.
          import Clocks
          import Statecraft
          import StatecraftTesting
          import Testing

          @MainActor
          @Test func removing() async {
            let clock = TestClock()
            let store = TestStore(initialState: Pad.State()) {
              Pad(clock: clock)
            }
            await store.send(.removeRow(id: 4))
            await store.receive(.finished("removed 4", code: 4)) {
              $0.status = .done("removed 4", code: 4)
            }
            await store.send(.increment) {
              $0.count = 1
            }
            await store.finish()
          }

          """)
    }

    @Test func aRecordingWithoutOriginsSendsEveryActionAndOneWithoutEveryStateIsNotExhaustive()
      throws
    {
      let old = #"""
        {"actions":[{"increment":{}},{"increment":{}}],"checkpoints":[{"state":{"count":2,
        "log":[],"rows":[],"status":{"idle":{}},"tags":{},"title":""},"step":2}],
        "formatVersion":1,"initialState":{"count":0,"log":[],"rows":[],"status":{"idle":{}},
        "tags":{},"title":""},"stateInterval":2}
        """#
      let recording = try RecordingOf<Pad>(jsonData: Data(old.utf8))
      let source = TestGenerator.generate(
        from: recording,
        configuration: TestGenerator.Configuration(
          reducer: "Pad(clock: ContinuousClock())", initialState: .expression("Pad.State()"),
          ending: .nothing))
      #expect(source.contains("store.exhaustivity = .off\n"))
      #expect(source.contains("  await store.send(.increment)\n  await store.send(.increment)\n"))
      #expect(!source.contains("receive"))
      #expect(!source.contains("finish"))
    }

    /// The generator's output for a Pad session is committed, formatted, as
    /// GeneratedPadSessionTests.swift, which this target compiles and runs: this test keeps the
    /// two the same.
    @Test func thePadSessionGeneratesTheCommittedTest() async throws {
      let clock = TestClock()
      let recorder = RecorderOf<Pad>(initialState: Pad.State(), clock: clock)
      let store = Store(initialState: recorder.initialState) { Pad(clock: clock) }
      store.record(into: recorder)
      store.send(.increment)
      store.send(.rename("Say \"hi\"\n\tthen 🎉 ünïcode"))
      store.send(.addRow(1, "one"))
      store.send(.addRow(2, "two"))
      store.send(.toggle(id: 2))
      store.send(.write("a"))
      store.send(.write("ab"))
      store.send(.tag("x", 1))
      await clock.advance(by: .milliseconds(500))
      let task = store.send(.start(seconds: 2))
      await clock.advance(by: .seconds(1))
      store.send(.removeRow(id: 1))
      await clock.advance(by: .seconds(1))
      await task.finish()
      store.send(.write(nil))
      let source = TestGenerator.generate(
        from: recorder.recording,
        configuration: TestGenerator.Configuration(
          imports: ["Foundation"], reducer: "Pad(clock: clock)", testName: "padSession",
          clock: TestGenerator.Clock(name: "clock"), suite: "GeneratedPadSessionTests",
          extending: "Engine"))
      let committed = try String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .appendingPathComponent("GeneratedPadSessionTests.swift"),
        encoding: .utf8)
      #expect(normalized(source) == normalized(committed), "\(source)")
    }

    /// The todos demo's recorded session (Tests/Recordings/todos-session.json) generates the
    /// committed GeneratedTodosSessionTests.swift, with the settings of
    /// `todos --replay --generate-test`.
    @Test func theRecordedTodosSessionGeneratesTheCommittedTest() throws {
      let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      let recording = try RecordingOf<Todos>(
        contentsOf: folder.appendingPathComponent("../../Recordings/todos-session.json"))
      #expect(recording.origins.contains(.effect))
      #expect(recording.origins.allSatisfy { $0 != nil })
      let source = TestGenerator.generate(
        from: recording,
        configuration: TestGenerator.Configuration(
          imports: ["IdentifiedCollections", "TodosFeature"],
          reducer: "Todos()",
          dependencies: ["$0.continuousClock = clock"],
          testName: "recordedSession",
          initialState: .expression(
            "Todos.State(todos: \(TestGenerator.swiftSource(recording.initialState.todos)))"),
          clock: TestGenerator.Clock(name: "clock"),
          suite: "GeneratedTodosSessionTests",
          extending: "Engine"))
      let committed = try String(
        contentsOf: folder.appendingPathComponent("GeneratedTodosSessionTests.swift"),
        encoding: .utf8)
      #expect(normalized(source) == normalized(committed), "\(source)")
    }

    /// A session of a feature with a shared value, where each step's shared value is its own
    /// (as in a recording read from JSON), generates the committed
    /// GeneratedLockerSessionTests.swift.
    @Test func theLockerSessionGeneratesTheCommittedTest() throws {
      func state(_ names: [String], label: String) -> Locker.State {
        Locker.State(box: Shared(value: Locker.Box(count: names.count, names: names)), label: label)
      }
      let recording = Recording<Locker.State, Locker.Action>(
        initialState: state([], label: ""),
        actions: [.put("a"), .put("b \"quoted\""), .empty],
        checkpoints: [
          .init(step: 1, state: state(["a"], label: "a")),
          .init(step: 2, state: state(["a", "b \"quoted\""], label: "b \"quoted\"")),
          .init(step: 3, state: state([], label: "b \"quoted\"")),
        ],
        stateInterval: 1, origins: [.send, .send, .send], times: [nil, nil, nil])
      let source = TestGenerator.generate(
        from: recording,
        configuration: TestGenerator.Configuration(
          reducer: "Locker()", testName: "lockerSession", suite: "GeneratedLockerSessionTests",
          extending: "Engine"))
      let committed = try String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .appendingPathComponent("GeneratedLockerSessionTests.swift"),
        encoding: .utf8)
      #expect(normalized(source) == normalized(committed), "\(source)")
    }
  }
}

/// An enum that describes itself in other words than its cases' names.
private enum Described: CustomStringConvertible {
  case plain
  var description: String { "a plain one" }
}

/// Source without what swift-format changes: white space, line breaks, trailing commas, and
/// the comment lines it keeps.
func normalized(_ source: String) -> String {
  source.split(separator: "\n")
    .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
    .joined()
    .filter { !$0.isWhitespace }
    .replacingOccurrences(of: ",)", with: ")")
    .replacingOccurrences(of: ",]", with: "]")
}
