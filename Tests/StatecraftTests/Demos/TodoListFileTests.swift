import Clocks
import Foundation
import IdentifiedCollections
import IssueReporting
import Statecraft
import Testing
import TodosFeature

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Engine {
  /// The todo list in a file-backed shared value, as the app keeps it: the format loads, a list
  /// survives a restart, the person's file is respected, and no change is lost to a file that
  /// another program changed.
  @MainActor @Suite struct TodoListFileTests {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("statecraft-todolist-\(UUID().uuidString)")
    var url: URL { folder.appendingPathComponent("data/todos.json") }

    let todos: IdentifiedArrayOf<Todo> = [
      Todo(id: 1, title: "Buy milk", isDone: true), Todo(id: 7, title: "Walk the dog"),
      Todo(id: 9, title: "Call Ann", notes: "about Friday"),
    ]

    /// The three todos above as the app writes them: notes only where there are some, so that
    /// an app from before notes still reads the file.
    static let written = """
      {
        "todos" : [
          {
            "id" : 1,
            "isDone" : true,
            "title" : "Buy milk"
          },
          {
            "id" : 7,
            "isDone" : false,
            "title" : "Walk the dog"
          },
          {
            "id" : 9,
            "isDone" : false,
            "notes" : "about Friday",
            "title" : "Call Ann"
          }
        ],
        "version" : 1
      }
      """

    /// A storage over the real files, as a fresh start of the app has.
    func freshStorage(clock: TestClock<Duration> = TestClock()) -> SharedStorage {
      SharedStorage(files: .live, defaults: .inMemory(), clock: clock)
    }

    func sharedList(in storage: SharedStorage) -> Shared<TodoList> {
      withSharedStorage(storage) {
        Shared(wrappedValue: TodoList(), .fileStorage(url, maximumSize: TodoList.maximumFileSize))
      }
    }

    func write(_ text: String, to url: URL) throws {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }

    @Test func aFileInTheTodoFormatLoadsAsASharedList() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try write(Self.written, to: url)
      let list = sharedList(in: freshStorage())
      #expect(list.wrappedValue == TodoList(todos: todos))
      #expect(list.error == nil)
    }

    @Test func aSharedListSurvivesARestartOnDisk() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      do {
        let storage = freshStorage()
        let list = sharedList(in: storage)
        list.todos = todos
        storage.flushPendingWrites()
      }
      #expect(try String(contentsOf: url, encoding: .utf8) == Self.written)
      let restarted = sharedList(in: freshStorage())
      #expect(restarted.todos == todos)
      let names = try FileManager.default.contentsOfDirectory(
        atPath: url.deletingLastPathComponent().path)
      #expect(names == ["todos.json"])
    }

    @Test func aMissingFileIsAnEmptyListAndTheFolderIsCreatedOnSave() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      let storage = freshStorage()
      let list = sharedList(in: storage)
      #expect(list.todos.isEmpty)
      list.todos = todos
      storage.flushPendingWrites()
      #expect(Todos.State(list: sharedList(in: freshStorage())).nextID == 10)
    }

    @Test func aListTheSameAsTheFileIsWrittenByteForByteAsTheAppWritesIt() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try write(Self.written, to: url)
      let storage = freshStorage()
      let list = sharedList(in: storage)
      list.todos.append(Todo(id: 10, title: "Water the plants"))
      list.todos.remove(id: 10)
      storage.flushPendingWrites()
      #expect(try String(contentsOf: url, encoding: .utf8) == Self.written)
    }

    /// The reasons the demo gives for such files: a shared value's corrupt-file message carries
    /// what the value's decoding said.
    @Test func aFileOfAnotherVersionOrWithTwoTodosOfOneIdIsCorruptAndLeftAlone() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      for (contents, reason) in [
        ("not json at all", "it is not valid JSON"),
        (#"{"todos": []}"#, "it has no 'version' field"),
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
        try write(contents, to: url)
        let storage = freshStorage()
        var list: Shared<TodoList>?
        withKnownIssue {
          list = sharedList(in: storage)
        } matching: {
          $0.description.contains("can't be decoded: \(reason).")
        }
        #expect(list?.error as? FileStorageError == .corrupt(path: url.path, reason: reason))
        let message = try #require(list?.error.map(TodoFileError.init)).description
        #expect(message.hasPrefix("The todo file \(url.path) is not a todo list: \(reason)."))
        list?.todos.append(Todo(id: 2, title: "c"))
        storage.flushPendingWrites()
        #expect(try String(contentsOf: url, encoding: .utf8) == contents)
      }
    }

    @Test func aFileLargerThanTheLimitIsRefusedByItsSizeAndLeftAlone() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try write("", to: url)
      // NB: a sparse file: 4 GiB that take no room on disk, and would take 4 GiB to read.
      let handle = try FileHandle(forWritingTo: url)
      try handle.truncate(atOffset: 4 << 30)
      try handle.close()
      var list: Shared<TodoList>?
      withKnownIssue {
        list = sharedList(in: freshStorage())
      } matching: {
        $0.description.contains("is 4 GiB, more than the 64 MiB its key reads")
      }
      let error = try #require(list?.error.map(TodoFileError.init))
      #expect(error.error == .tooLarge(path: url.path, size: 4 << 30, limit: 64 << 20))
      #expect(
        error.description
          == "The todo file \(url.path) is 4 GiB; a todo file may be at most 64 MiB, so it was "
          + "not read. It was left as it is; move it, or pass --file to use another file.")
      #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == 4 << 30)
    }

    /// Another program writes something that is not a todo list over the file while the app
    /// runs: the list shown stays, the next change goes beside the file, and the app can say
    /// where.
    @Test func aChangeMadeAfterAnotherProgramCorruptedTheFileIsSavedBesideIt() async throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try write(Self.written, to: url)
      let clock = TestClock()
      let storage = freshStorage(clock: clock)
      // NB: as the app does: the list's problems are said in the app's words, not reported.
      try await withIssueReporters([]) {
        let list = sharedList(in: storage)
        try write("garbage", to: url)
        await clock.advance(by: .seconds(1))
        let corrupt = try #require(list.error.map(TodoFileError.init))
        #expect(corrupt.error == .corrupt(path: url.path, reason: "it is not valid JSON"))
        #expect(corrupt.whileRunning.contains("your next change is saved beside it"))
        #expect(list.todos == todos)

        list.todos.append(Todo(id: 10, title: "After"))
        storage.flushPendingWrites()
        let copy = folder.appendingPathComponent("data/todos.conflict-1.json")
        #expect(try String(contentsOf: url, encoding: .utf8) == "garbage")
        let saved = try JSONDecoder().decode(TodoList.self, from: Data(contentsOf: copy))
        #expect(saved.todos == todos + [Todo(id: 10, title: "After")])
        let beside = try #require(list.error.map(TodoFileError.init))
        #expect(beside.error == .savedBeside(path: url.path, copy: copy.path))
        #expect(beside.description.contains("your list is saved to \(copy.path) instead"))
      }
    }

    // MARK: - Saving respects the person's file

    /// NB: only root may give a file to someone else, so this runs as root (as CI does).
    @Test(.enabled(if: geteuid() == 0))
    func savingKeepsTheFilesOwner() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try write(Self.written, to: url)
      #expect(chown(url.path, 65534, 65534) == 0)
      let storage = freshStorage()
      sharedList(in: storage).todos.removeAll()
      storage.flushPendingWrites()
      let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      #expect(attributes[.ownerAccountID] as? Int == 65534)
      #expect(attributes[.groupOwnerAccountID] as? Int == 65534)
    }

    /// NB: CI runs as root, who may write any file; the check reads the mode bits, so a file
    /// whose owner made it read-only is left alone by root too.
    @Test func aReadOnlyFileIsNotOverwrittenAndSaidSo() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try write(Self.written, to: url)
      try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
      let storage = freshStorage()
      let list = sharedList(in: storage)
      list.todos.removeAll()
      withKnownIssue {
        storage.flushPendingWrites()
      } matching: {
        $0.description.contains("it is read-only")
      }
      #expect(try String(contentsOf: url, encoding: .utf8) == Self.written)
      let message = try #require(list.error.map(TodoFileError.init)).description
      #expect(message.hasPrefix("Could not save the todo file \(url.path): it is read-only"))
    }

    @Test func aDeviceIsRefusedAsNotARegularFile() throws {
      var list: Shared<TodoList>?
      withKnownIssue {
        list = withSharedStorage(freshStorage()) {
          Shared(wrappedValue: TodoList(), .fileStorage(URL(fileURLWithPath: "/dev/null")))
        }
      } matching: {
        $0.description.contains("it is a device, not a regular file")
      }
      let message = try #require(list?.error.map(TodoFileError.init)).description
      #expect(message.hasPrefix("Can't read the todo file /dev/null: "))
      #expect(message.contains("it is a device, not a regular file"))
    }

    @Test func messagesAreSentencesWithoutFoundationDumps() {
      let errors: [FileStorageError] = [
        .unreadable(path: "/p", reason: "permission denied"),
        .corrupt(path: "/p", reason: "it is not valid JSON"),
        .cannotWrite(path: "/p", reason: "writing it failed (no space left on device)"),
        .readOnly(path: "/p"), .changedOnDisk(path: "/p"),
        .savedBeside(path: "/p", copy: "/q"), .tooLarge(path: "/p", size: 5 << 30, limit: 1 << 20),
      ]
      for error in errors.map(TodoFileError.init) {
        for message in [error.description, error.whileRunning, error.onQuit] {
          #expect(message.hasSuffix(".") && !message.hasSuffix(".."), "\(message)")
          #expect(message.contains("/p"), "\(message)")
          #expect(!message.contains("Domain") && !message.contains("UserInfo"), "\(message)")
        }
      }
    }

    // MARK: - Where the file is

    @Test func theDefaultLocationIsADataFolderUnderHome() {
      #expect(
        TodoList.defaultURL(environment: ["HOME": "/home/ada"]).path
          == "/home/ada/.local/share/statecraft/todos.json")
      #expect(
        TodoList.defaultURL(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "/data"]).path
          == "/data/statecraft/todos.json")
    }

    @Test(arguments: ["data", "./data", "", "~/data"])
    func aRelativeDataHomeIsIgnored(dataHome: String) {
      #expect(
        TodoList.defaultURL(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": dataHome]).path
          == "/home/ada/.local/share/statecraft/todos.json")
    }

    @Test(arguments: [["HOME": "home/ada"], ["HOME": ""], [:]])
    func aMissingOrRelativeHomeIsTheUsersHomeFolder(environment: [String: String]) {
      #expect(
        TodoList.defaultURL(environment: environment, homeFolder: { "/home/pw" }).path
          == "/home/pw/.local/share/statecraft/todos.json")
    }
  }
}
