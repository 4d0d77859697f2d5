import Foundation
import IdentifiedCollections

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The JSON file the todos live in.
///
/// Saving is atomic: the list is written to a temporary file beside the real one, flushed to
/// disk, then renamed over it, so a crash mid-save leaves the old file or the new one, never half
/// of one. Loading a file that is corrupt or can't be read throws an error that names the file and
/// says what to do; the caller must then not save over it.
public struct TodoFile: Sendable {
  /// Where the file is.
  public let url: URL

  public init(url: URL) {
    self.url = url
  }

  /// The default location: `$XDG_DATA_HOME/statecraft/todos.json`, or
  /// `~/.local/share/statecraft/todos.json` when `XDG_DATA_HOME` is not set.
  public static func defaultURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let dataHome =
      environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory())
      .appendingPathComponent(".local/share")
    return dataHome.appendingPathComponent("statecraft/todos.json")
  }

  /// The file's format: a version number and the todos.
  struct Contents: Codable {
    var version: Int
    var todos: [Todo]
  }

  static let version = 1

  /// Reads the todos. A missing file is an empty list.
  public func load() throws(TodoFileError) -> IdentifiedArrayOf<Todo> {
    guard FileManager.default.fileExists(atPath: url.path) else { return [] }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadable(path: url.path, reason: "\(error.localizedDescription)")
    }
    let contents: Contents
    do {
      contents = try JSONDecoder().decode(Contents.self, from: data)
    } catch {
      throw .corrupt(path: url.path, reason: Self.describe(error))
    }
    guard contents.version == Self.version else {
      throw .corrupt(
        path: url.path,
        reason: "it has format version \(contents.version); this app reads version \(Self.version)")
    }
    var todos = IdentifiedArrayOf<Todo>()
    for todo in contents.todos {
      guard todos.append(todo).inserted else {
        throw .corrupt(path: url.path, reason: "two todos have the id \(todo.id)")
      }
    }
    return todos
  }

  /// Writes the todos atomically, creating the folder if needed.
  public func save(_ todos: IdentifiedArrayOf<Todo>) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(Contents(version: Self.version, todos: Array(todos)))
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw TodoFileError.cannotWrite(path: temporary.path, errno) }
    defer { close(descriptor) }
    try data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        guard written > 0 else { throw TodoFileError.cannotWrite(path: temporary.path, errno) }
        offset += written
      }
    }
    guard fsync(descriptor) == 0 else {
      throw TodoFileError.cannotWrite(path: temporary.path, errno)
    }
    guard rename(temporary.path, url.path) == 0 else {
      let code = errno
      unlink(temporary.path)
      throw TodoFileError.cannotWrite(path: url.path, code)
    }
  }

  private static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context):
      return "it is not valid JSON (\(context.debugDescription))"
    case DecodingError.keyNotFound(let key, _):
      return "it has no '\(key.stringValue)' field"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return "the value at '\(path)' has the wrong type"
    default:
      return "\(error)"
    }
  }
}

/// Why the todo file could not be used.
public enum TodoFileError: Error, Equatable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case corrupt(path: String, reason: String)
  case cannotWrite(path: String, Int32)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "Can't read the todo file \(path): \(reason). It was left as it is."
    case .corrupt(let path, let reason):
      return """
        The todo file \(path) is not a todo list: \(reason). It was left as it is; \
        fix or move it, or pass --file to use another file.
        """
    case .cannotWrite(let path, let code):
      return "Can't write \(path): \(String(cString: strerror(code)))."
    }
  }
}

/// Saves todos one at a time, skipping a save that was cancelled before it began.
///
/// The feature cancels a stale save when a newer one starts. An actor runs one save at a time,
/// and a save cancelled while it waited for its turn writes nothing, so the file always ends
/// with the newest list.
public actor TodoSaver {
  private let file: TodoFile
  /// How many saves wrote the file (for tests and the status line).
  public private(set) var writes = 0

  public init(file: TodoFile) {
    self.file = file
  }

  /// Writes `todos` unless the calling task was cancelled.
  public func save(_ todos: IdentifiedArrayOf<Todo>) throws {
    try Task.checkCancellation()
    try file.save(todos)
    writes += 1
  }
}
