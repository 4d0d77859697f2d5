import ConcurrencyExtras
import Foundation

/// The files that ``FileStorageKey`` reads and writes: the real ones (``live``), or files kept
/// in memory (``inMemory()``), which tests use and can edit to act as another process.
public struct SharedFileSystem: Sendable {
  enum Backing: Sendable {
    case live
    case memory(LockIsolated<[String: MemoryFile]>)
  }

  struct MemoryFile: Sendable {
    var bytes: HeldBytes
    var generation: Int
  }

  let backing: Backing

  /// The real file system, through POSIX calls: atomic replacement, mode, owner and symbolic
  /// links kept, an advisory lock on the folder while writing.
  public static let live = SharedFileSystem(backing: .live)

  /// A new, empty file system in memory.
  public static func inMemory() -> SharedFileSystem {
    SharedFileSystem(backing: .memory(LockIsolated([:])))
  }

  /// The contents of the file at `url`, or nil when there is none.
  public func contents(of url: URL) throws(FileStorageError) -> Data? {
    try contents(of: url, limit: .max)
  }

  /// The contents of the file at `url`, or nil when there is none; a file of more than `limit`
  /// bytes is not read (``FileStorageError/tooLarge(path:size:limit:)``).
  func contents(of url: URL, limit: Int) throws(FileStorageError) -> Data? {
    switch backing {
    case .live:
      do throws(POSIXFile.Failure) {
        return try POSIXFile.read(POSIXFile.resolvingLinks(url.path), limit: limit)
      } catch {
        if case .tooLarge(let size, let limit) = error {
          throw .tooLarge(path: url.path, size: size, limit: limit)
        }
        throw .unreadable(path: url.path, reason: error.reason)
      }
    case .memory(let files):
      guard let data = files.value[url.path]?.bytes.data else { return nil }
      if data.count > limit { throw .tooLarge(path: url.path, size: data.count, limit: limit) }
      return data
    }
  }

  /// Replaces the file at `url` with `data` (nil removes it), as another process would: for
  /// tests of an in-memory file system. On the live one, it writes as a file key does:
  /// atomically, under the folder's lock, the file's mode and symbolic link kept, and the
  /// temporary files that a crashed write left beside it removed.
  public func setContents(_ data: Data?, of url: URL) throws(FileStorageError) {
    switch backing {
    case .live:
      if let data {
        removeStaleTemporaryFiles(besides: url)
        try replace(url, with: data, ifUnchangedFrom: nil)
      } else {
        unlink(POSIXFile.resolvingLinks(url.path))
      }
    case .memory(let files):
      files.withValue { files in
        let generation = (files[url.path]?.generation ?? 0) + 1
        files[url.path] = data.map { MemoryFile(bytes: HeldBytes($0), generation: generation) }
      }
    }
  }

  // MARK: - What file keys use

  /// Removes the temporary files a crashed run left beside the file.
  func removeStaleTemporaryFiles(besides url: URL) {
    guard case .live = backing else { return }
    POSIXFile.removeStaleTemporaryFiles(besides: POSIXFile.resolvingLinks(url.path))
  }

  /// What identifies the file's current version without reading it.
  func stamp(of url: URL) -> [Int] {
    switch backing {
    case .live: return POSIXFile.stamp(POSIXFile.resolvingLinks(url.path))
    case .memory(let files): return files.value[url.path].map { [$0.generation] } ?? []
    }
  }

  /// Replaces the file at `url` with `data` atomically, if what is on disk is still `expected`
  /// (`.some(nil)`: no file; nil: don't check). Creates the folder when needed.
  func replace(
    _ url: URL, with data: Data, ifUnchangedFrom expected: Data??
  ) throws(FileStorageError) {
    switch backing {
    case .live:
      let target = POSIXFile.resolvingLinks(url.path)
      let folder = (target as NSString).deletingLastPathComponent
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw .cannotWrite(path: url.path, reason: "its folder \(folder) could not be created")
      }
      do throws(POSIXFile.Failure) {
        try POSIXFile.withLock(onFolder: folder) { () throws(POSIXFile.Failure) in
          if let expected {
            // NB: a file larger than what was last read or written has changed: it is not read.
            do throws(POSIXFile.Failure) {
              let current = try POSIXFile.read(target, limit: expected?.count ?? 0)
              guard current == expected else { throw .changedOnDisk }
            } catch .tooLarge {
              throw .changedOnDisk
            }
          }
          try POSIXFile.replace(target, with: data)
        }
      } catch {
        switch error {
        case .changedOnDisk: throw .changedOnDisk(path: url.path)
        case .readOnly: throw .readOnly(path: url.path)
        case .errno, .message, .tooLarge:
          throw .cannotWrite(path: url.path, reason: error.reason)
        }
      }
    case .memory(let files):
      let changed = files.withValue { files -> Bool in
        if let expected, files[url.path]?.bytes != expected.map(HeldBytes.init) { return true }
        let generation = (files[url.path]?.generation ?? 0) + 1
        files[url.path] = MemoryFile(bytes: HeldBytes(data), generation: generation)
        return false
      }
      if changed { throw .changedOnDisk(path: url.path) }
    }
  }

  /// Whether anything is at `url`.
  func exists(_ url: URL) -> Bool {
    switch backing {
    case .live: return POSIXFile.exists(url.path)
    case .memory(let files): return files.value[url.path] != nil
    }
  }
}

/// A file's contents, held for as long as a storage lives (what a file key last read or wrote,
/// a file of an in-memory file system).
///
/// NB: an array, not `Data`: `Data` keeps its buffer's address with its case in the address's
/// spare bits, where the leak sanitizer can't see it. A storage that lives to the exit (a
/// test's, which swift-dependencies' per-test cache keeps) then has its files reported as
/// leaked by `swift test --sanitize=address`, in our suite and in our users'.
struct HeldBytes: Equatable, Sendable {
  let bytes: [UInt8]

  init(_ data: Data) { bytes = Array(data) }

  var data: Data { Data(bytes) }
}

/// Why a file-backed shared value could not be loaded or saved. Each message names the file,
/// says what happened and what was done about it.
public enum FileStorageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read; it is left as it is, and never written.
  case unreadable(path: String, reason: String)
  /// The file is not valid JSON for the value; it is left as it is, and never written.
  case corrupt(path: String, reason: String)
  /// Writing failed; the file is left as it was.
  case cannotWrite(path: String, reason: String)
  /// The file is read-only; it was not overwritten.
  case readOnly(path: String)
  /// The file changed on disk since it was read; it was not overwritten.
  case changedOnDisk(path: String)
  /// The file changed on disk while a change of the value was waiting to be written, so the
  /// value was saved to `copy` beside it (and is saved there from then on).
  case savedBeside(path: String, copy: String)
  /// The file holds `size` bytes, more than the `limit` its key reads
  /// (``FileStorageKey/maximumSize``): it was not read, and is never written.
  case tooLarge(path: String, size: Int, limit: Int)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "Can't read the file \(path): \(reason). It was left as it is, and won't be written."
    case .corrupt(let path, let reason):
      return """
        The file \(path) can't be decoded: \(reason). It was left as it is, and won't be \
        written; fix or move it.
        """
    case .cannotWrite(let path, let reason):
      return "Could not save the file \(path): \(reason). It was left as it was."
    case .readOnly(let path):
      return """
        Could not save the file \(path): it is read-only, so it was left as it is. Make it \
        writable (chmod u+w) and make any change to save again.
        """
    case .changedOnDisk(let path):
      return """
        The file \(path) changed on disk since it was loaded (another process or an editor \
        wrote it), so it was not overwritten.
        """
    case .savedBeside(let path, let copy):
      return """
        The file \(path) changed on disk since it was loaded (another process or an editor \
        wrote it), so it was not overwritten: the value is saved to \(copy) instead. Both are \
        kept; merge them by hand, or restart to load \(path).
        """
    case .tooLarge(let path, let size, let limit):
      return """
        The file \(path) is \(POSIXFile.describe(size: size)), more than the \
        \(POSIXFile.describe(size: limit)) its key reads, so it was not read; it was left as it \
        is, and won't be written.
        """
    }
  }
}
