import Foundation
import Statecraft

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a session is recorded to (`todos --record PATH`): checked when the app starts, so
/// that a path that can't be written fails at once rather than at quit, and written as the todo
/// file is, through the library's file system (`SharedFileSystem.live`): a temporary file renamed
/// over it under the folder's lock, its mode and symbolic link kept, and what a crashed write left
/// beside it removed.
public enum RecordingFile {
  /// Why the recording can't be written to `path`, in words: "its folder /x does not exist".
  public struct Failure: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String {
      "Can't record to \(path): \(reason). Pass --record a path in a folder you can write to."
    }
  }

  /// Why the recording at `url` can't be replayed when it is there but is no regular file (a
  /// folder, a FIFO, a device), in words; nil otherwise (a missing or unreadable file is for the
  /// reader to say).
  public static func notARegularFile(at url: URL) -> String? {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return nil }
    return kind(of: info)
  }

  /// Checks that a recording can be written to `url`, leaving nothing behind.
  public static func checkWritable(_ url: URL) throws(Failure) {
    let target = resolvingLinks(url.path)
    let folder = (target as NSString).deletingLastPathComponent
    func fail(_ reason: String) -> Failure { Failure(path: url.path, reason: reason) }
    var info = stat()
    guard stat(folder, &info) == 0 else {
      if errno == ENOENT { throw fail("its folder \(folder) does not exist") }
      throw fail("its folder \(folder) can't be used (\(words(for: errno)))")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw fail("\(folder) is not a folder") }
    if stat(target, &info) == 0 {
      if let kind = kind(of: info) { throw fail(kind) }
      if info.st_mode & 0o222 == 0 || access(target, W_OK) != 0 { throw fail("it is read-only") }
      guard access(folder, W_OK | X_OK) == 0 else {
        throw fail("its folder \(folder) is not writable")
      }
      return
    }
    let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      throw fail("it can't be created (\(words(for: errno)))")
    }
    close(descriptor)
    unlink(target)
  }

  /// Writes `data` to `url` (through a symbolic link to its target), replacing the file.
  public static func write(_ data: Data, to url: URL) throws(Failure) {
    do throws(FileStorageError) {
      try SharedFileSystem.live.setContents(data, of: url)
    } catch {
      switch error {
      case .cannotWrite(_, let reason), .unreadable(_, let reason), .corrupt(_, let reason):
        throw Failure(path: url.path, reason: reason)
      case .readOnly: throw Failure(path: url.path, reason: "it is read-only")
      case .changedOnDisk, .savedBeside, .tooLarge:
        throw Failure(path: url.path, reason: "\(error)")
      }
    }
  }

  // MARK: - Helpers

  /// Why a file with `info` is no file a recording can be kept in, or nil for a regular file.
  static func kind(of info: stat) -> String? {
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "it is a folder, not a file"
    case S_IFIFO: return "it is a named pipe (FIFO), not a regular file"
    case S_IFSOCK: return "it is a socket, not a regular file"
    case S_IFCHR, S_IFBLK: return "it is a device, not a regular file"
    default: return "it is not a regular file"
    }
  }

  /// The path a chain of symbolic links at `path` ends at (which may not exist yet).
  static func resolvingLinks(_ path: String) -> String {
    var path = path
    for _ in 0..<40 {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(path, &buffer, buffer.count - 1)
      guard count > 0 else { return path }
      let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      path =
        target.hasPrefix("/")
        ? target
        : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
    }
    return path
  }

  /// `strerror`, starting in lower case: "no space left on device".
  static func words(for code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }
}
