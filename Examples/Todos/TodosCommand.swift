import ArgumentParser
import DemoTerminal
import Foundation
import TodosFeature

/// `swift run todos`: the todo list demo.
@main
struct TodosCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "todos",
    abstract: "A todo list built on Statecraft's Reducer idiom.",
    discussion: """
      Full screen when run in a terminal; one command per line when input is piped.
      Todos are saved after each change (a burst of changes at most every 0.2 s)
      and on quit, even on a signal: more signals don't cut that save short.

      KEYS (full screen):
        ↑↓ move · space toggle · a add · e edit · d delete (then y/n) · f filter
        / search · o open details (t title · n notes · Esc or b back)
        u undo · r redo · s sync · c cancel sync · l log · Ctrl-L redraw · q quit
      COMMANDS (piped input):
        add TITLE · edit N TITLE · toggle N · delete N (then yes/no) · undo · redo
        filter all|active|done · open N (then title TEXT · notes TEXT · back)
        search [TEXT] · sync · cancel · wait · list · log · help · quit
      RECORDING:
        --record s.json records the session; --replay s.json checks it against
        today's feature; --replay s.json --generate-test prints a Swift Testing
        test that replays it.
      FILE:
        $XDG_DATA_HOME/statecraft/todos.json, or ~/.local/share/statecraft/todos.json
        when XDG_DATA_HOME is unset, empty or relative. --file picks another.
        A file that another program changes while the app runs is never written
        over: the list is saved beside it (todos.conflict-1.json), and quitting
        says so and exits 1.
      LIMITS:
        todo file 64 MiB (a larger one is refused unread) · input line 64 KiB
        title 1000 characters · notes 10000 characters
        quitting after a signal 5 s: then the app ends, and says so
      ENVIRONMENT:
        XDG_DATA_HOME  the folder data files go in (an absolute path)
        HOME           the home folder, used when XDG_DATA_HOME is not
      """
  )

  // NB: errors that repeat what was typed are escaped before they reach the terminal.
  static func main() async { await runEscapingErrors() }

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The JSON file the todos are kept in (see FILE above).", valueName: "path"),
    completion: .file())
  var file: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Record the session's actions and states to this JSON file (checked at start, written on quit).",
      valueName: "path"),
    completion: .file())
  var record: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Replay a recorded session against today's feature and say whether it reproduced.",
      valueName: "path"),
    completion: .file())
  var replay: String?

  @Flag(help: "Start the Statecraft Inspector and print the URL of its page to standard error.")
  var inspect = false

  @Flag(
    name: .long,
    help: "With --replay: print a Swift Testing test that replays the session (see --output).")
  var generateTest = false

  @Option(
    name: .long,
    help: ArgumentHelp("With --generate-test: write the test to this file.", valueName: "path"),
    completion: .file())
  var output: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "With --generate-test: the name of the test's suite.", valueName: "name"))
  var suite: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "With --generate-test: the type the suite extends.",
      valueName: "type"))
  var extending: String?

  func validate() throws {
    for (option, value) in [
      ("--file", file), ("--record", record), ("--replay", replay), ("--output", output),
    ]
    where value?.isEmpty == true {
      throw ValidationError("\(option) needs a path; an empty one names no file.")
    }
    if replay != nil, record != nil || file != nil {
      throw ValidationError("--replay runs on its own: it reads no todo file and records nothing.")
    }
    if !generateTest, output != nil || suite != nil || extending != nil {
      throw ValidationError("--output, --suite and --extending go with --generate-test.")
    }
    if generateTest, replay == nil {
      throw ValidationError(
        "--generate-test needs --replay: the recorded session to turn into a test.")
    }
  }

  func run() async throws {
    if let replay, generateTest {
      let options = TodosTestGeneration.Options(
        output: output.map { URL(fileURLWithPath: $0) }, suite: suite, extending: extending)
      let code = await TodosTestGeneration.run(URL(fileURLWithPath: replay), options: options)
      if code != 0 { throw ExitCode(code) }
      return
    }
    if let replay {
      let code = await TodosApp.replay(URL(fileURLWithPath: replay))
      if code != 0 { throw ExitCode(code) }
      return
    }
    let url = file.map { URL(fileURLWithPath: $0) } ?? TodoList.defaultURL()
    let code = await TodosApp.main(
      fileURL: url, recordTo: record.map { URL(fileURLWithPath: $0) }, inspect: inspect)
    if code != 0 { throw ExitCode(code) }
  }
}
