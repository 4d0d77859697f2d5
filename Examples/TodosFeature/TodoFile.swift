import Foundation
import IdentifiedCollections
import Statecraft

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The JSON file the todos live in: where it is by default, and a reader and writer of its
/// format for tools and tests.
///
/// The app does not save through this type: it keeps its list in a file-backed shared value,
/// `Shared(wrappedValue: TodoList(), .fileStorage(url))`, whose file key writes atomically
/// (a crash mid-write leaves the old file or the new one), keeps the file's mode, owner and
/// symbolic link, holds an advisory lock while writing, never overwrites a read-only, corrupt
/// or changed file (a changed one is kept and the list saved beside it), picks up edits made
/// outside the app, and writes what is pending on quit. `.ci/check-demos` drives the app
/// through each of these, `kill -9` during saves included; `FileStorageTests` checks the file
/// key. ``TodoFileError`` says its failures in the app's words.
///
/// `TodoFileTests` checks this type's own reading and writing.
public struct TodoFile: Sendable {
  /// Where the file is.
  public let url: URL

  public init(url: URL) {
    self.url = url
  }

  /// The default location: `$XDG_DATA_HOME/statecraft/todos.json`, or
  /// `~/.local/share/statecraft/todos.json` when `XDG_DATA_HOME` is not set, empty, or relative
  /// (the XDG Base Directory specification says to ignore a relative path). `~` is `HOME`, or
  /// the user's home folder from the password database when `HOME` is not set, empty or
  /// relative (a relative one would put the file under whatever folder the app starts in).
  public static func defaultURL(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    homeFolder: () -> String = TodoFile.passwordDatabaseHome
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

  /// The contents of the file as last read or written: what a save expects to find on disk.
  public struct Version: Equatable, Sendable {
    /// The file's bytes, or nil when there was no file.
    let contents: Data?

    /// No file.
    public static let missing = Version(contents: nil)
  }

  /// The file's format: a version number and the todos.
  struct Contents: Codable {
    var version: Int
    var todos: [Todo]
  }

  static let version = 1

  /// Reads the todos. A missing file is an empty list.
  public func load() throws(TodoFileError) -> IdentifiedArrayOf<Todo> {
    try read().todos
  }

  /// Reads the todos and the version of the file they came from, to pass to
  /// ``save(_:replacing:)``. A missing file is an empty list.
  ///
  /// Temporary files that a crashed run left beside the file are removed first.
  public func read() throws(TodoFileError) -> (todos: IdentifiedArrayOf<Todo>, version: Version) {
    let target = POSIXFile.resolvingLinks(url.path)
    POSIXFile.removeStaleTemporaryFiles(besides: target)
    let data: Data?
    do throws(POSIXFile.Failure) {
      data = try POSIXFile.read(target)
    } catch {
      throw .unreadable(path: url.path, reason: error.reason)
    }
    guard let data else { return ([], .missing) }
    let contents: Contents
    do {
      contents = try JSONDecoder().decode(Contents.self, from: data)
    } catch {
      throw .corrupt(
        path: url.path,
        reason: Self.firstInvalidUTF8(in: data).map {
          "it is not UTF-8 text (byte \($0 + 1) is not UTF-8; was it saved in another encoding?)"
        } ?? Self.describe(error))
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
    return (todos, Version(contents: data))
  }

  /// Writes the todos atomically, replacing whatever file is there, creating the folder if
  /// needed. It keeps the file's mode and owner, writes through a symbolic link and leaves a
  /// read-only file alone, like ``save(_:replacing:)``, but does not check what is on disk:
  /// use ``save(_:replacing:)`` to check.
  public func save(_ todos: IdentifiedArrayOf<Todo>) throws(TodoFileError) {
    _ = try save(todos, replacing: nil)
  }

  /// Writes the todos atomically if the file on disk is still `expected`, creating the folder
  /// if needed, and returns the version written.
  ///
  /// - Throws: ``TodoFileError/changedOnDisk(path:)`` when the file is not `expected` any more
  ///   (nothing is written), ``TodoFileError/readOnly(path:)`` for a read-only file, and
  ///   ``TodoFileError/cannotWrite(path:reason:)`` when writing failed (the file is left as it
  ///   was). Every error names this file, never the temporary one.
  @discardableResult
  public func save(
    _ todos: IdentifiedArrayOf<Todo>, replacing expected: Version
  ) throws(TodoFileError) -> Version {
    try save(todos, replacing: .some(expected))
  }

  private func save(
    _ todos: IdentifiedArrayOf<Todo>, replacing expected: Version?
  ) throws(TodoFileError) -> Version {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(Contents(version: Self.version, todos: Array(todos)))
    } catch {
      throw .cannotWrite(path: url.path, reason: "a title could not be encoded as JSON")
    }
    let target = POSIXFile.resolvingLinks(url.path)
    let folder = (target as NSString).deletingLastPathComponent
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw .cannotWrite(path: url.path, reason: "its folder \(folder) could not be created")
    }
    do throws(POSIXFile.Failure) {
      return try POSIXFile.withLock(onFolder: folder) { () throws(POSIXFile.Failure) in
        if let expected {
          let current = try POSIXFile.read(target)
          guard current == expected.contents else { throw .changedOnDisk }
        }
        try POSIXFile.replace(target, with: data)
        return Version(contents: data)
      }
    } catch {
      switch error {
      case .changedOnDisk: throw .changedOnDisk(path: url.path)
      case .readOnly: throw .readOnly(path: url.path)
      case .errno, .message, .tooLarge: throw .cannotWrite(path: url.path, reason: error.reason)
      }
    }
  }

  /// A file beside this one that does not exist yet, to save a list that can't go here:
  /// `todos.conflict-1.json`, `todos.conflict-2.json`, …
  public func conflictCopy() -> TodoFile {
    let folder = url.deletingLastPathComponent()
    let stem = url.deletingPathExtension().lastPathComponent
    let suffix = url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"
    var number = 1
    while true {
      let candidate = folder.appendingPathComponent("\(stem).conflict-\(number)\(suffix)")
      if !POSIXFile.exists(candidate.path) { return TodoFile(url: candidate) }
      number += 1
    }
  }

  /// The offset of the first byte of `data` that is not part of valid UTF-8, if one is not.
  static func firstInvalidUTF8(in data: Data) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var bytes = data.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &bytes) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  private static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context):
      if let underlying = context.underlyingError as? DecodingError {
        return describe(underlying)
      }
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? "it is not valid JSON" : "the value at '\(path)' is not valid"
    case DecodingError.keyNotFound(let key, _):
      return "it has no '\(key.stringValue)' field"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return "the value at '\(path)' has the wrong type"
    default:
      return "it could not be decoded"
    }
  }
}

/// Why the todo file could not be used. Each message names the file, says what happened and
/// what to do.
public enum TodoFileError: Error, Equatable, CustomStringConvertible {
  /// The app's words for why the shared list's file could not be read or written.
  public init(_ error: any Error) {
    switch error as? FileStorageError {
    case .unreadable(let path, let reason)?: self = .unreadable(path: path, reason: reason)
    case .corrupt(let path, let reason)?: self = .corrupt(path: path, reason: reason)
    case .cannotWrite(let path, let reason)?: self = .cannotWrite(path: path, reason: reason)
    case .readOnly(let path)?: self = .readOnly(path: path)
    case .changedOnDisk(let path)?: self = .changedOnDisk(path: path)
    case .savedBeside(let path, let copy)?: self = .savedBeside(path: path, copy: copy)
    case .tooLarge(let path, _, _)?:
      self = .unreadable(path: path, reason: "\(error)")
    case nil: self = .cannotWrite(path: "", reason: "\(error)")
    }
  }

  case unreadable(path: String, reason: String)
  case corrupt(path: String, reason: String)
  case cannotWrite(path: String, reason: String)
  /// The file is read-only; it was not overwritten.
  case readOnly(path: String)
  /// The file changed on disk since it was loaded; it was not overwritten.
  case changedOnDisk(path: String)
  /// The file changed on disk since it was loaded, so the list was saved to `copy` instead.
  case savedBeside(path: String, copy: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return """
        Can't read the todo file \(path): \(reason). It was left as it is; check that it is a \
        file you may read, or pass --file to use another file.
        """
    case .corrupt(let path, let reason):
      return """
        The todo file \(path) is not a todo list: \(reason). It was left as it is; \
        fix or move it, or pass --file to use another file.
        """
    case .cannotWrite(let path, let reason):
      return """
        Could not save the todo file \(path): \(reason). It was left as it was; fix that \
        and make any change to save again.
        """
    case .readOnly(let path):
      return """
        Could not save the todo file \(path): it is read-only, so it was left as it is. Make it \
        writable (chmod u+w) and make any change to save again, or pass --file to use another \
        file.
        """
    case .changedOnDisk(let path):
      return """
        The todo file \(path) changed on disk since it was loaded (another todos app or an \
        editor wrote it), so it was not overwritten.
        """
    case .savedBeside(let path, let copy):
      return """
        The todo file \(path) changed on disk since it was loaded (another todos app or an \
        editor wrote it), so it was not overwritten: your list is saved to \(copy) instead. \
        Both are kept; merge them by hand, or restart to load \(path).
        """
    }
  }
}
