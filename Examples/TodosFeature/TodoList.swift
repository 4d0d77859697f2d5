import Foundation
import IdentifiedCollections

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The todo list as the todo file holds it, for keeping it in a file-backed shared value:
///
/// ```swift
/// let list = Shared(wrappedValue: TodoList(), .fileStorage(TodoList.defaultURL()))
/// ```
///
/// It encodes to `{"todos": [...], "version": 1}`, notes written only when present, so that a
/// file written before notes existed reads as it is. Decoding rejects a file of another format
/// version and a file where two todos share an id.
///
/// `TodoListFileTests` checks that a file in this format loads as a shared list, and that a
/// shared list survives a restart (`aFileInTheTodoFormatLoadsAsASharedList`,
/// `aSharedListSurvivesARestartOnDisk`).
public struct TodoList: Codable, Equatable, Sendable {
  /// The todos, in order.
  public var todos: IdentifiedArrayOf<Todo>

  /// The format version this app reads and writes.
  public static let version = 1

  public init(todos: IdentifiedArrayOf<Todo> = []) {
    self.todos = todos
  }

  /// The largest todo file the app reads: 64 MiB (a list of 100,000 todos with short titles is
  /// about 8 MiB). A larger file is refused, by its size, before a byte of it is read.
  public static let maximumFileSize = 64 << 20

  /// The default location of the todo file: `$XDG_DATA_HOME/statecraft/todos.json`, or
  /// `~/.local/share/statecraft/todos.json` when `XDG_DATA_HOME` is not set, empty, or relative
  /// (the XDG Base Directory specification says to ignore a relative path). `~` is `HOME`, or
  /// the user's home folder from the password database when `HOME` is not set, empty or
  /// relative (a relative one would put the file under whatever folder the app starts in).
  public static func defaultURL(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    homeFolder: () -> String = TodoList.passwordDatabaseHome
  ) -> URL {
    func absolute(_ name: String) -> String? {
      environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil }
    }
    let dataHome =
      absolute("XDG_DATA_HOME").map { URL(fileURLWithPath: $0) }
      ?? URL(fileURLWithPath: absolute("HOME") ?? homeFolder())
      .appendingPathComponent(".local/share")
    return dataHome.appendingPathComponent("statecraft/todos.json")
  }

  /// The user's home folder as the password database has it, whatever `HOME` says.
  public static func passwordDatabaseHome() -> String {
    guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return "/" }
    return String(cString: folder)
  }

  enum CodingKeys: String, CodingKey { case version, todos }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let version = try container.decode(Int.self, forKey: .version)
    guard version == Self.version else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container,
        debugDescription: "format version \(version); this app reads version \(Self.version)")
    }
    var todos = IdentifiedArrayOf<Todo>()
    for todo in try container.decode([Todo].self, forKey: .todos) {
      guard todos.append(todo).inserted else {
        throw DecodingError.dataCorruptedError(
          forKey: .todos, in: container, debugDescription: "two todos have the id \(todo.id)")
      }
    }
    self.todos = todos
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.version, forKey: .version)
    try container.encode(Array(todos), forKey: .todos)
  }
}
