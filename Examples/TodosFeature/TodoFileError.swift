import Statecraft

/// The app's words for why the todo file could not be read or written: each message names the
/// file, says what happened and what to do. The file key (`.fileStorage(url)`) reports a
/// `FileStorageError`; this says it as the todo app does.
public struct TodoFileError: Error, Equatable, CustomStringConvertible {
  /// What the file key reported.
  public let error: FileStorageError

  /// The app's words for `error`, which the shared list's file key reported.
  public init(_ error: any Error) {
    self.error =
      error as? FileStorageError ?? .cannotWrite(path: "the todo file", reason: "\(error)")
  }

  /// Whether the todo file can't be used at all: the app doesn't start with such a file.
  public var refusesTheFile: Bool {
    switch error {
    case .unreadable, .corrupt, .tooLarge: return true
    case .cannotWrite, .readOnly, .changedOnDisk, .savedBeside: return false
    }
  }

  /// The message when the app starts, or when a save fails while it runs.
  public var description: String {
    switch error {
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
    case .tooLarge(let path, let size, let limit):
      return """
        The todo file \(path) is \(Self.describe(size: size)); a todo file may be at most \
        \(Self.describe(size: limit)), so it was not read. It was left as it is; move it, or \
        pass --file to use another file.
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

  /// The message when the file that the app loaded was made unusable while it runs (another
  /// program wrote something that is not a todo list in it): the list shown stays as it is, and
  /// its next change is saved beside the file.
  public var whileRunning: String {
    switch error {
    case .unreadable(let path, let reason), .corrupt(let path, let reason):
      return """
        The todo file \(path) was changed by another program and is not a todo list any more: \
        \(reason). It was left as it is; your next change is saved beside it.
        """
    case .tooLarge(let path, let size, _):
      return """
        The todo file \(path) was changed by another program and is \
        \(Self.describe(size: size)) now, too large to be a todo list. It was left as it is; \
        your next change is saved beside it.
        """
    default:
      return description
    }
  }

  /// What quitting says when the file was made unusable while the app ran and no change was
  /// waiting to be saved: nothing was written, and the list shown is in no file.
  public var onQuit: String {
    guard refusesTheFile else { return description }
    return """
      The todo file \(path) was changed by another program and is not a todo list any more, \
      so nothing was written over it: the list this app showed is in no file now.
      """
  }

  /// The file the error is about.
  var path: String {
    switch error {
    case .unreadable(let path, _), .corrupt(let path, _), .tooLarge(let path, _, _),
      .cannotWrite(let path, _), .readOnly(let path), .changedOnDisk(let path),
      .savedBeside(let path, _):
      return path
    }
  }

  /// A size in words: "512 bytes", "64 MiB", "4 GiB".
  static func describe(size: Int) -> String {
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    guard size >= 1024 else { return size == 1 ? "1 byte" : "\(size) bytes" }
    var value = Double(size) / 1024
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10)\(tenths % 10 == 0 ? "" : ".\(tenths % 10)") \(units[unit])"
  }
}
