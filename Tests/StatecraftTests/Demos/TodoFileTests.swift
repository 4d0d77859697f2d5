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

    @Test(arguments: ["data", "./data", "", "~/data"])
    func aRelativeDataHomeIsIgnored(dataHome: String) {
      #expect(
        TodoFile.defaultURL(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": dataHome]).path
          == "/home/ada/.local/share/statecraft/todos.json")
    }

    @Test(arguments: [["HOME": "home/ada"], ["HOME": ""], [:]])
    func aMissingOrRelativeHomeIsTheUsersHomeFolder(environment: [String: String]) {
      #expect(
        TodoFile.defaultURL(environment: environment, homeFolder: { "/home/pw" }).path
          == "/home/pw/.local/share/statecraft/todos.json")
    }

    // MARK: - Saving respects the person's file

    func mode(_ path: String) throws -> Int {
      try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    func write(_ text: String, to url: URL) throws {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }

    /// NB: only root may give a file to someone else, so this runs as root (as CI does).
    @Test(.enabled(if: geteuid() == 0))
    func savingKeepsTheFilesOwner() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try file.save(todos)
      #expect(chown(file.url.path, 65534, 65534) == 0)
      try file.save([])
      let attributes = try FileManager.default.attributesOfItem(atPath: file.url.path)
      #expect(attributes[.ownerAccountID] as? Int == 65534)
      #expect(attributes[.groupOwnerAccountID] as? Int == 65534)
    }

    @Test func savingThroughASymlinkUpdatesItsTargetAndKeepsTheLink() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      let target = folder.appendingPathComponent("elsewhere/real.json")
      try TodoFile(url: target).save(todos)
      try FileManager.default.createDirectory(
        at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: file.url.path, withDestinationPath: "../elsewhere/real.json")
      #expect(try file.load() == todos)
      try file.save([])
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: file.url.path)
          == "../elsewhere/real.json")
      #expect(try TodoFile(url: target).load() == [])
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path)
          == ["real.json"])
    }

    /// NB: CI runs as root, who may write any file; the check reads the mode bits, so a file
    /// whose owner made it read-only is left alone by root too.
    @Test func aReadOnlyFileIsNotOverwritten() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try file.save(todos)
      let before = try Data(contentsOf: file.url)
      try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file.url.path)
      let error = #expect(throws: TodoFileError.self) { try file.save([]) }
      #expect(error == .readOnly(path: file.url.path))
      #expect(try Data(contentsOf: file.url) == before)
      #expect(try mode(file.url.path) == 0o444)
      let message = try #require(error).description
      #expect(message.contains(file.url.path) && message.contains("read-only"))
    }

    @Test func temporaryFilesOfACrashedRunAreRemovedOnTheNextLoad() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try file.save(todos)
      let data = file.url.deletingLastPathComponent()
      try write("half a li", to: data.appendingPathComponent(".todos.json.4242.tmp"))
      try write("someone else's", to: data.appendingPathComponent("notes.tmp"))
      #expect(try file.load() == todos)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: data.path).sorted()
          == ["notes.tmp", "todos.json"])
    }

    @Test func messagesAreSentencesWithoutFoundationDumps() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      let errors: [TodoFileError] = [
        .unreadable(path: "/p", reason: "permission denied"),
        .corrupt(path: "/p", reason: "it is not valid JSON"),
        .cannotWrite(path: "/p", reason: "writing it failed (no space left on device)"),
        .readOnly(path: "/p"), .changedOnDisk(path: "/p"),
        .savedBeside(path: "/p", copy: "/q"),
      ]
      try write("not json", to: file.url)
      let corrupt = #expect(throws: TodoFileError.self) { try file.load() }
      for error in errors + [corrupt].compactMap(\.self) {
        let message = error.description
        #expect(message.hasSuffix(".") && !message.hasSuffix(".."), "\(message)")
        #expect(!message.contains("Domain") && !message.contains("UserInfo"), "\(message)")
      }
    }

    @Test func aDeviceIsRefusedAsNotARegularFile() throws {
      let error = #expect(throws: TodoFileError.self) {
        try TodoFile(url: URL(fileURLWithPath: "/dev/null")).load()
      }
      let message = try #require(error).description
      #expect(message.hasPrefix("Can't read the todo file /dev/null: "))
      #expect(message.contains("it is a device, not a regular file"))
    }

    @Test func aFileThatIsNotUTF8IsSaidToBeSo() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      try FileManager.default.createDirectory(
        at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
      let latin1 =
        Data(#"{"version": 1, "todos": [{"id": 1, "title": "caf"#.utf8) + [0xE9]
        + Data(#"", "isDone": false}]}"#.utf8)
      try latin1.write(to: file.url)
      let error = #expect(throws: TodoFileError.self) { try file.load() }
      let message = try #require(error).description
      #expect(message.contains("it is not UTF-8 text (byte 49 is not UTF-8"), "\(message)")
      #expect(try Data(contentsOf: file.url) == latin1)
    }

    @Test func temporaryFilesOfACrashedRecordingAreRemovedWhenTheRecordingIsChecked() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      let recording = folder.appendingPathComponent("session.json")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try write("half a recor", to: folder.appendingPathComponent(".session.json.4242.tmp"))
      try write("someone else's", to: folder.appendingPathComponent(".other.json.4242.tmp"))
      try RecordingFile.checkWritable(recording)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
          == [".other.json.4242.tmp"])
      try RecordingFile.write(Data("{}".utf8), to: recording)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
          == [".other.json.4242.tmp", "session.json"])
    }

  }
}
