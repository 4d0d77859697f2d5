import Foundation

/// Where a change log (``Reducer/logChanges(to:filter:)``) writes its entries: standard error,
/// a closure, or a file.
///
/// ```swift
/// Feature().logChanges()                                 // standard error
/// Feature().logChanges(to: .text { logger.debug("\($0)") })
/// Feature().logChanges(to: try .file(at: URL(fileURLWithPath: "changes.log")))
/// Feature().logChanges(to: ChangeLogSink { entry in entries.append(entry) })
/// ```
///
/// A sink is called on the main actor, inside `send`, once for each logged action.
public struct ChangeLogSink {
  let write: (ChangeLogEntry) -> Void

  /// A sink that hands each entry to `write`.
  public init(_ write: @escaping (_ entry: ChangeLogEntry) -> Void) {
    self.write = write
  }

  /// A sink that hands the text of each entry (its ``ChangeLogEntry/description``, ending with a
  /// newline) to `write`.
  ///
  /// It formats entries exactly as ``standardError`` and ``file(at:)`` do, so it is also the way
  /// to route the log into a logger or to capture it in a test.
  public static func text(_ write: @escaping (_ text: String) -> Void) -> ChangeLogSink {
    ChangeLogSink { write($0.description) }
  }

  /// Writes each entry to the process's standard error. The default sink.
  public static var standardError: ChangeLogSink {
    .text { FileHandle.standardError.write(Data($0.utf8)) }
  }

  /// Appends each entry to the file at `url`, creating the file if it does not exist.
  ///
  /// - Throws: The error that opening the file for writing threw (a missing folder, no
  ///   permission).
  public static func file(at url: URL) throws -> ChangeLogSink {
    if !FileManager.default.fileExists(atPath: url.path) {
      guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
      }
    }
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    return .text { handle.write(Data($0.utf8)) }
  }
}
