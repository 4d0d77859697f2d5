import Foundation
import IdentifiedCollections
import Testing
import TodosFeature

extension Engine {
  @MainActor @Suite struct TodoFileTests {
    let folder: URL

    init() throws {
      folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("statecraft-todos-\(UUID().uuidString)")
    }

    var file: TodoFile { TodoFile(url: folder.appendingPathComponent("data/todos.json")) }

    let todos: IdentifiedArrayOf<Todo> = [
      Todo(id: 1, title: "Buy milk", isDone: true), Todo(id: 7, title: "Walk the dog"),
    ]

    @Test func savedTodosLoadBackAndTheFolderIsCreated() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try file.save(todos)
      #expect(try file.load() == todos)
      #expect(Todos.State(todos: try file.load()).nextID == 8)
    }

    @Test func aMissingFileIsAnEmptyList() throws {
      #expect(try file.load() == [])
    }

    @Test func savingLeavesNoTemporaryFileBehind() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try file.save(todos)
      try file.save([])
      let names = try FileManager.default.contentsOfDirectory(
        atPath: file.url.deletingLastPathComponent().path)
      #expect(names == ["todos.json"])
      #expect(try file.load() == [])
    }

    @Test(arguments: [
      ("not json at all", "it is not valid JSON"),
      (#"{"todos": []}"#, "it has no 'version' field"),
      (#"{"version": 2, "todos": []}"#, "it has format version 2; this app reads version 1"),
      (
        #"{"version": 1, "todos": [{"id": 1, "title": "a", "isDone": false}, "#
          + #"{"id": 1, "title": "b", "isDone": true}]}"#,
        "two todos have the id 1"
      ),
      (#"{"version": 1, "todos": [{"id": "x", "title": "a", "isDone": false}]}"#, "wrong type"),
    ])
    func aCorruptFileIsReportedAndLeftAsItIs(contents: String, reason: String) throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try FileManager.default.createDirectory(
        at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: file.url)
      let error = #expect(throws: TodoFileError.self) { try file.load() }
      let message = try #require(error).description
      #expect(message.contains(file.url.path))
      #expect(message.contains(reason))
      #expect(message.contains("It was left as it is"))
      #expect(try String(contentsOf: file.url, encoding: .utf8) == contents)
    }

    @Test func anUnreadableFileIsReported() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      // NB: a folder where the file should be can't be read as a file, even by root.
      try FileManager.default.createDirectory(at: file.url, withIntermediateDirectories: true)
      let error = #expect(throws: TodoFileError.self) { try file.load() }
      #expect(try #require(error).description.hasPrefix("Can't read the todo file"))
    }

    @Test func theDefaultLocationIsADataFolderUnderHome() {
      #expect(
        TodoFile.defaultURL(environment: ["HOME": "/home/ada"]).path
          == "/home/ada/.local/share/statecraft/todos.json")
      #expect(
        TodoFile.defaultURL(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "/data"]).path
          == "/data/statecraft/todos.json")
    }

    @Test func aSaveCancelledBeforeItsTurnWritesNothing() async throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      let saver = TodoSaver(file: file)
      let stale = Task { [todos] in try await saver.save(todos) }
      stale.cancel()
      await #expect(throws: CancellationError.self) { try await stale.value }
      try await saver.save([])
      #expect(await saver.writes == 1)
      #expect(try file.load() == [])
    }
  }
}
