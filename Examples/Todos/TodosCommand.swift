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

  func run() async throws {
    let url = file.map { URL(fileURLWithPath: $0) } ?? TodoFile.defaultURL()
    let code = await TodosApp.main(file: TodoFile(url: url))
    if code != 0 { throw ExitCode(code) }
  }
}
