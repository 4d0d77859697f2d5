import DemoTerminal
import Foundation
import Statecraft
import StatecraftTestGenerator
import TodosFeature

/// `todos --replay s.json --generate-test [--output FILE]`: the Swift Testing test that replays a
/// recorded session through a `TestStore` of the list feature.
enum TodosTestGeneration {
  /// Where the test goes and how it is wrapped.
  struct Options {
    /// The file to write the test to; nil prints it.
    var output: URL?
    /// A suite type to put the test in, if any.
    var suite: String?
    /// A type to extend with the suite (`Engine` in Statecraft's own test target), if any.
    var extending: String?
  }

  /// The test generator's settings for the list feature: a `TestClock` as its `continuousClock`
  /// dependency (the search debounce and the sync), and the recorded list as the initial state.
  static func configuration(for recording: RecordingOf<Todos>, options: Options)
    -> TestGenerator.Configuration
  {
    TestGenerator.Configuration(
      imports: ["IdentifiedCollections", "TodosFeature"],
      reducer: "Todos()",
      dependencies: ["$0.continuousClock = clock"],
      testName: "recordedSession",
      initialState: .expression(
        "Todos.State(todos: \(TestGenerator.swiftSource(recording.initialState.todos)))"),
      clock: TestGenerator.Clock(name: "clock"),
      suite: options.suite,
      extending: options.extending)
  }

  /// The test of a session the Inspector's page exported (its "Generate test" button): the
  /// export stores only the states it can't recompute, so the others are recomputed with the
  /// list's reducer for the test's assertions.
  @MainActor
  static func test(ofExportedSession json: Data) throws -> String {
    let recording = try RecordingOf<Todos>(jsonData: json)
    return TestGenerator.generate(
      from: recording, recomputingStatesWith: Todos(),
      configuration: configuration(for: recording, options: Options()))
  }

  /// Reads the recording at `url` and prints or writes its test; 0 when done. On the main
  /// actor: the states a recording doesn't store are recomputed by the list's reducer, whose
  /// writes to shared values are for the main actor.
  @MainActor
  static func run(_ url: URL, options: Options) -> Int32 {
    let recording: RecordingOf<Todos>
    do {
      recording = try RecordingOf<Todos>(contentsOf: url)
    } catch {
      printError("error: can't generate a test from \(url.path): \(error)")
      return 1
    }
    // NB: the test builds its initial state from the recorded list; a session recorded in any
    // other state (a filter, a search already set) would not start where the recording does.
    guard Todos.State(todos: recording.initialState.todos) == recording.initialState else {
      printError(
        "error: the recording \(url.path) starts in a state the list can't be built in from its "
          + "todos alone; record the session from the start of the app.")
      return 1
    }
    // NB: a recording the Inspector exported stores only the states it can't recompute.
    let source = TestGenerator.generate(
      from: recording, recomputingStatesWith: Todos(),
      configuration: configuration(for: recording, options: options))
    guard let output = options.output else {
      print(source, terminator: "")
      return 0
    }
    do {
      try Data(source.utf8).write(to: output, options: .atomic)
    } catch {
      printError("error: can't write the test to \(output.path): \(error.localizedDescription)")
      return 1
    }
    printLine("Wrote a test of \(recording.stepCount) steps to \(output.path).")
    return 0
  }
}
