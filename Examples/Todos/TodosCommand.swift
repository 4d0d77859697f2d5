import ArgumentParser
import Foundation
import TodosFeature

/// `swift run todos`: the todo list demo.
@main
struct TodosCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "todos",
    abstract: "A todo list built on Statecraft's Reducer idiom.",
    discussion: """
      Full screen when run in a terminal; reads one command per line when input is piped \
      (type 'help' to see them). Todos are saved after every change.
      """
  )

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The JSON file the todos are kept in.", valueName: "path"),
    completion: .file())
  var file: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Record the session's actions and states, written to this JSON file on quit.",
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

  func validate() throws {
    if replay != nil, record != nil || file != nil {
      throw ValidationError("--replay runs on its own: it reads no todo file and records nothing.")
    }
  }

  func run() async throws {
    if let replay {
      let code = await TodosApp.replay(URL(fileURLWithPath: replay))
      if code != 0 { throw ExitCode(code) }
      return
    }
    let url = file.map { URL(fileURLWithPath: $0) } ?? TodoFile.defaultURL()
    let code = await TodosApp.main(
      file: TodoFile(url: url), recordTo: record.map { URL(fileURLWithPath: $0) })
    if code != 0 { throw ExitCode(code) }
  }
}
