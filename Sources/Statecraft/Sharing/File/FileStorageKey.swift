import ConcurrencyExtras
import Foundation

/// A shared value kept in a JSON file.
///
/// ```swift
/// var todos = Shared(wrappedValue: [], .fileStorage(URL(fileURLWithPath: "todos.json")))
/// ```
///
/// - **Atomic writes**: the value is written to a temporary file beside the real one, flushed,
///   then renamed over it, so a crash (`kill -9`) mid-write leaves the old file or the new one.
///   Temporary files a crashed run left are removed at the next load. The file keeps its mode
///   and, where the process may, its owner; a symbolic link stays a link and its target is
///   written. An advisory lock (`flock` on the folder) is held while checking and writing.
/// - **Writes are deferred and coalesced**: a change is written ``SharedStorage/fileWriteDelay``
///   after the first unwritten change, so a burst of changes is one write. What is still
///   unwritten is written when the process exits normally (or at
///   ``SharedStorage/flushPendingWrites()``).
/// - **Outside changes**: the file is checked every ``SharedStorage/filePollInterval`` (a
///   `stat`; it is read only when that changed); an edit made by another process is loaded
///   into every holder.
/// - **Never clobbered**: a write first checks that the file is still what was last read or
///   written. If it changed, it is not overwritten: the value is saved beside it
///   (`todos.conflict-1.json`) and ``FileStorageError/savedBeside(path:copy:)`` is reported.
/// - **Corrupt files** are reported (``FileStorageError/corrupt(path:reason:)``) and never
///   written over. One found at the start is never written: the value starts from its default
///   and stays in memory. One that another program writes while the value is held is not
///   loaded: the value stays as it was, and its next change is saved beside the file, as for any
///   outside change. The reason names the field that failed to decode and keeps the
///   `debugDescription` the value's decoding gave.
/// - **Size**: a file of more than ``maximumSize`` bytes is not read, by its size before a byte
///   is read (``FileStorageError/tooLarge(path:size:limit:)``), and never written.
public struct FileStorageKey<Value: Codable & Sendable>: SharedKey, CustomStringConvertible {
  /// The file.
  public let url: URL
  /// The most bytes the file is read up to; a larger file is reported and left alone.
  public let maximumSize: Int

  /// The ``maximumSize`` of a key made without one: 64 MiB.
  public static var defaultMaximumSize: Int { 64 << 20 }

  /// A key for the file at `url`, read up to `maximumSize` bytes.
  public init(url: URL, maximumSize: Int = defaultMaximumSize) {
    self.url = url
    self.maximumSize = maximumSize
  }

  public var id: FileStorageKeyID { FileStorageKeyID(path: url.standardizedFileURL.path) }

  public func load(in storage: SharedStorage) throws -> Value? {
    let file = storage.file(at: url)
    guard let data = try file.load(limit: maximumSize) else { return nil }
    do {
      return try JSONDecoder().decode(Value.self, from: data)
    } catch {
      let failure = FileStorageError.corrupt(path: url.path, reason: describe(error, in: data))
      file.block(failure)
      throw failure
    }
  }

  public func save(_ value: Value, in storage: SharedStorage) throws {
    let path = url.path
    // NB: encoded when the write runs, after the delay: a burst of changes to a large value
    // encodes it once.
    storage.file(at: url).schedule { () throws(FileStorageError) -> Data in
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      do {
        return try encoder.encode(value)
      } catch {
        throw .cannotWrite(
          path: path, reason: "the value could not be encoded as JSON (\(error))")
      }
    }
  }

  public func subscribe(
    in storage: SharedStorage, subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    let url = url
    return storage.file(at: url).watch(
      limit: maximumSize,
      decode: { data in try JSONDecoder().decode(Value.self, from: data) },
      describe: { error, data in describe(error, in: data) },
      subscriber: subscriber)
  }

  public var description: String { "fileStorage(\(String(reflecting: url.path)))" }

  private func describe(_ error: any Error, in data: Data) -> String {
    if String(data: data, encoding: .utf8) == nil {
      return "it is not UTF-8 text"
    }
    switch error {
    case DecodingError.dataCorrupted(let context):
      if context.underlyingError is DecodingError { return "it is not valid JSON" }
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      if path.isEmpty { return "it is not valid JSON" }
      // NB: the value's own decoding says why (a format version it doesn't read, two
      // elements with one id): that is kept, so the person knows what to fix.
      let why = context.debugDescription
      return "the value at '\(path)' is not valid" + (why.isEmpty ? "" : ": \(why)")
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

/// The identity of a ``FileStorageKey``: its standardized path.
public struct FileStorageKeyID: Hashable, Sendable {
  let path: String
}

extension SharedKey {
  /// A value kept in the JSON file at `url`, read up to `maximumSize` bytes: see
  /// ``FileStorageKey``.
  ///
  /// ```swift
  /// var todos = Shared(wrappedValue: [], .fileStorage(URL(fileURLWithPath: "todos.json")))
  /// ```
  public static func fileStorage<Value>(
    _ url: URL, maximumSize: Int = FileStorageKey<Value>.defaultMaximumSize
  ) -> Self
  where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, maximumSize: maximumSize)
  }
}

extension SharedStorage {
  /// Writes now what file keys have not written yet. It also runs when the process exits
  /// normally.
  public func flushPendingWrites() {
    for file in files(matching: { _ in true }) { file.flush() }
  }
}
