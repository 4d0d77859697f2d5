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
/// that a path that can't be written fails at once rather than at quit, and written like the
/// todo file (a temporary file renamed over it, its mode kept).
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
    return POSIXFile.notARegularFile(info)
  }

  /// Checks that a recording can be written to `url`, leaving nothing behind, and removes the
  /// temporary files that a run which crashed while writing a recording there left beside it.
  public static func checkWritable(_ url: URL) throws(Failure) {
    let target = POSIXFile.resolvingLinks(url.path)
    let folder = (target as NSString).deletingLastPathComponent
    func fail(_ reason: String) -> Failure { Failure(path: url.path, reason: reason) }
    var info = stat()
    guard stat(folder, &info) == 0 else {
      if errno == ENOENT { throw fail("its folder \(folder) does not exist") }
      throw fail("its folder \(folder) can't be used (\(POSIXFile.words(for: errno)))")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw fail("\(folder) is not a folder") }
    POSIXFile.removeStaleTemporaryFiles(besides: target)
    if stat(target, &info) == 0 {
      if let kind = POSIXFile.notARegularFile(info) { throw fail(kind) }
      if info.st_mode & 0o222 == 0 || access(target, W_OK) != 0 { throw fail("it is read-only") }
      guard access(folder, W_OK | X_OK) == 0 else {
        throw fail("its folder \(folder) is not writable")
      }
      return
    }
    let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      throw fail("it can't be created (\(POSIXFile.words(for: errno)))")
    }
    close(descriptor)
    unlink(target)
  }

  /// Writes `data` to `url` (through a symbolic link to its target), replacing the file.
  public static func write(_ data: Data, to url: URL) throws(Failure) {
    let target = POSIXFile.resolvingLinks(url.path)
    do throws(POSIXFile.Failure) {
      // NB: under the folder's lock, as the todo file is written, so that another run's
      // `removeStaleTemporaryFiles` never takes this run's temporary file for a crashed one.
      try POSIXFile.withLock(onFolder: (target as NSString).deletingLastPathComponent) {
        () throws(POSIXFile.Failure) in
        try POSIXFile.replace(target, with: data)
      }
    } catch {
      throw Failure(path: url.path, reason: error.reason)
    }
  }
}
