import Clocks
import Foundation
import IdentifiedCollections
import Statecraft
import Testing
import TodosFeature

extension Engine {
  /// The todo list in a file-backed shared value, on disk: the format the app writes today
  /// loads, and a list survives a restart.
  @MainActor @Suite struct TodoListFileTests {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("statecraft-todolist-\(UUID().uuidString)")
    var url: URL { folder.appendingPathComponent("data/todos.json") }

    let todos: IdentifiedArrayOf<Todo> = [
      Todo(id: 1, title: "Buy milk", isDone: true), Todo(id: 7, title: "Walk the dog"),
      Todo(id: 9, title: "Call Ann", notes: "about Friday"),
    ]

    /// A storage over the real files, as a fresh start of the app has.
    func freshStorage() -> SharedStorage {
      SharedStorage(files: .live, defaults: .inMemory(), clock: TestClock())
    }

    @Test func aFileTheAppWroteLoadsAsASharedList() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try TodoFile(url: url).save(todos)
      let list = withSharedStorage(freshStorage()) {
        Shared(wrappedValue: TodoList(), .fileStorage(url))
      }
      #expect(list.wrappedValue == TodoList(todos: todos))
      #expect(list.error == nil)
    }

    @Test func aSharedListSurvivesARestartOnDisk() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      do {
        let storage = freshStorage()
        let list = withSharedStorage(storage) {
          Shared(wrappedValue: TodoList(), .fileStorage(url))
        }
        list.todos = todos
        storage.flushPendingWrites()
      }
      // NB: the file is in the format the app wrote before: notes only where there are some,
      // so that an older app still reads it.
      let text = try String(contentsOf: url, encoding: .utf8)
      #expect(text.components(separatedBy: "\"notes\"").count == 2)
      #expect(try TodoFile(url: url).load() == todos)
      let restarted = withSharedStorage(freshStorage()) {
        Shared(wrappedValue: TodoList(), .fileStorage(url))
      }
      #expect(restarted.todos == todos)
      let names = try FileManager.default.contentsOfDirectory(
        atPath: url.deletingLastPathComponent().path)
      #expect(names == ["todos.json"])
    }

    @Test func aListTheSameAsTheFileIsWrittenByteForByteAsTheAppWritesIt() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try TodoFile(url: url).save(todos)
      let written = try Data(contentsOf: url)
      let storage = freshStorage()
      let list = withSharedStorage(storage) {
        Shared(wrappedValue: TodoList(), .fileStorage(url))
      }
      list.todos.append(Todo(id: 10, title: "Water the plants"))
      list.todos.remove(id: 10)
      storage.flushPendingWrites()
      #expect(try Data(contentsOf: url) == written)
    }

    /// The reasons the demo gives today for such files are kept: a shared value's corrupt-file
    /// message carries what the value's decoding said.
    @Test func aFileOfAnotherVersionOrWithTwoTodosOfOneIdIsCorruptAndLeftAlone() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      for (contents, reason) in [
        (
          #"{"todos": [], "version": 2}"#,
          "the value at 'version' is not valid: format version 2; this app reads version 1"
        ),
        (
          #"{"todos": [{"id": 1, "isDone": false, "title": "a"},"#
            + #" {"id": 1, "isDone": false, "title": "b"}], "version": 1}"#,
          "the value at 'todos' is not valid: two todos have the id 1"
        ),
      ] {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
        let storage = freshStorage()
        var list: Shared<TodoList>?
        withKnownIssue {
          list = withSharedStorage(storage) {
            Shared(wrappedValue: TodoList(), .fileStorage(url))
          }
        } matching: {
          $0.description.contains("can't be decoded: \(reason).")
        }
        #expect(list?.error as? FileStorageError == .corrupt(path: url.path, reason: reason))
        list?.todos.append(Todo(id: 2, title: "c"))
        storage.flushPendingWrites()
        #expect(try String(contentsOf: url, encoding: .utf8) == contents)
      }
    }
  }
}
