import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file operations a file-backed shared value needs, on the POSIX calls, so that every failure is an
/// `errno` said in words (never a Foundation error dump) and a file's mode, owner and links are
/// handled on purpose.
package enum POSIXFile {
  /// Why an operation failed.
  package enum Failure: Error, Equatable {
    /// A call failed with `code`; `context` says what was being done, in words.
    case errno(Int32, context: String)
    /// Something other than a call failed, said in words.
    case message(String)
    /// The file is read-only.
    case readOnly
    /// The file is not what the caller expected.
    case changedOnDisk
    /// The file holds `size` bytes (at least; it may have grown while it was read), more than
    /// the `limit` the caller reads.
    case tooLarge(size: Int, limit: Int)

    /// What happened, in words, to follow "Could not save FILE: ".
    package var reason: String {
      switch self {
      case .errno(let code, let context): return "\(context) (\(POSIXFile.words(for: code)))"
      case .message(let message): return message
      case .readOnly: return "it is read-only"
      case .changedOnDisk: return "it changed on disk"
      case .tooLarge(let size, let limit):
        let (size, limit) = (POSIXFile.describe(size: size), POSIXFile.describe(size: limit))
        return "it is \(size), more than the \(limit) read"
      }
    }
  }

  /// `strerror`, starting in lower case: "no space left on device".
  package static func words(for code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }

  /// Whether anything (a file, a folder, a dangling link) is at `path`.
  package static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// What the symbolic link at `path` points to, or nil when `path` is not a link.
  package static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The whole file at `path`, or nil when there is none.
  ///
  /// Anything but a regular file is refused without reading it: a FIFO would block until some
  /// other process writes to it, and a device (`/dev/null`, `/dev/zero`) is no list. A file of
  /// more than `limit` bytes is refused too, by its size before a byte is read, and by what was
  /// read when it grows while it is read (``Failure/tooLarge(size:limit:)``).
  package static func read(_ path: String, limit: Int = .max) throws(Failure) -> Data? {
    // NB: O_NONBLOCK, so that opening a FIFO with no writer does not block.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      throw .errno(code, context: "it could not be opened")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw .errno(errno, context: "it could not be examined")
    }
    if let kind = notARegularFile(info) { throw .message(kind) }
    // NB: checked before reading: a 4 GB file (a sparse one costs nothing on disk) would
    // otherwise be read whole, then held twice while it is decoded.
    if Int(info.st_size) > limit { throw .tooLarge(size: Int(info.st_size), limit: limit) }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    var data = Data()
    data.reserveCapacity(Int(info.st_size))
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .errno(errno, context: "reading it failed")
      }
      if count == 0 { return data }
      // NB: the size said may be wrong by now: the file may grow while it is read.
      if count > limit - data.count { throw .tooLarge(size: data.count + count, limit: limit) }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  /// A size in words: "512 bytes", "64 MiB", "4.2 GiB".
  package static func describe(size: Int) -> String {
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

  /// Why a file with `info` is not one a list can be kept in ("it is a folder, not a file"), or
  /// nil for a regular file.
  package static func notARegularFile(_ info: stat) -> String? {
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "it is a folder, not a file"
    case S_IFIFO: return "it is a named pipe (FIFO), not a regular file"
    case S_IFSOCK: return "it is a socket, not a regular file"
    case S_IFCHR, S_IFBLK: return "it is a device, not a regular file"
    default: return "it is not a regular file"
    }
  }

  /// Runs `body` holding an exclusive advisory lock (`flock`) on `folder`.
  ///
  /// NB: the lock is on the folder, not on the file, because saving replaces the file: a lock
  /// on the old file would not stop a writer that opened the new one. It is released when the
  /// process dies, so a crashed run never leaves it held.
  package static func withLock<T>(
    onFolder folder: String, _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .errno(errno, context: "its folder could not be opened") }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw .errno(errno, context: "its folder could not be locked") }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  /// Removes the temporary files (see ``replace(_:with:)``) that a crashed run left beside
  /// `target`.
  ///
  /// NB: every temporary file is created and renamed while its writer holds the folder's lock,
  /// so one that is there while this run holds the lock belongs to a run that died.
  package static func removeStaleTemporaryFiles(besides target: String) {
    let folder = (target as NSString).deletingLastPathComponent
    let prefix = POSIXFile.temporaryPrefix(of: target)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder),
      names.contains(where: { $0.hasPrefix(prefix) && $0.hasSuffix(".tmp") })
    else { return }
    try? withLock(onFolder: folder) { () throws(Failure) in
      for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
        unlink((folder as NSString).appendingPathComponent(name))
      }
    }
  }

  /// Replaces the file at `target` (not a link) with `data`: written to a temporary file in the
  /// same folder, flushed, then renamed over it. The file keeps its mode, and its owner where
  /// the process may set it. A read-only file is left alone.
  ///
  /// Call it holding ``withLock(onFolder:_:)`` on the folder: a temporary file found while the
  /// lock is held belongs to a run that died.
  package static func replace(_ target: String, with data: Data) throws(Failure) {
    var info = stat()
    let exists = stat(target, &info) == 0
    if exists {
      if let kind = notARegularFile(info) { throw .message(kind) }
      // NB: root may write any file, so `access` alone would let it overwrite a file whose
      // owner made it read-only; the mode bits say what the owner meant.
      if info.st_mode & 0o222 == 0 || access(target, W_OK) != 0 { throw .readOnly }
    }
    let folder = (target as NSString).deletingLastPathComponent
    let temporary = (folder as NSString).appendingPathComponent(
      "\(POSIXFile.temporaryPrefix(of: target))\(getpid()).tmp")
    unlink(temporary)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      let code = errno
      if code == EACCES || code == EPERM {
        throw .message(
          "its folder \(folder) is not writable, and a save writes a new file there and renames "
            + "it over the old one, so that a crash never leaves half a file; make the folder "
            + "writable (chmod u+w)")
      }
      throw .errno(code, context: "no new file could be written in its folder \(folder)")
    }
    var closed = false
    defer { if !closed { close(descriptor) } }
    do throws(Failure) {
      if exists {
        // NB: the owner first, since changing it may clear the set-id bits of the mode.
        if info.st_uid != geteuid() || info.st_gid != getegid() {
          _ = fchown(descriptor, info.st_uid, info.st_gid)
        }
        guard fchmod(descriptor, info.st_mode & 0o7777) == 0 else {
          throw .errno(errno, context: "its mode could not be kept")
        }
      }
      let writeError: Int32? = data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0, errno == EINTR { continue }
          guard written > 0 else { return written < 0 ? errno : EIO }
          offset += written
        }
        return nil
      }
      if let writeError { throw .errno(writeError, context: "writing it failed") }
      guard fsync(descriptor) == 0 else { throw .errno(errno, context: "writing it failed") }
      closed = true
      guard close(descriptor) == 0 else { throw .errno(errno, context: "writing it failed") }
      guard rename(temporary, target) == 0 else {
        throw .errno(errno, context: "it could not be replaced")
      }
    } catch {
      unlink(temporary)
      throw error
    }
    // NB: the rename itself is durable only once the folder is flushed.
    let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }
}

/// `read(2)`, under a name that the enum's own `read` does not hide.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
{
  read(descriptor, buffer, count)
}

extension POSIXFile {
  /// The prefix of a file's temporary files: `.todos.json.` then the process id and `.tmp`.
  package static func temporaryPrefix(of target: String) -> String {
    ".\((target as NSString).lastPathComponent)."
  }

  /// The path a chain of symbolic links at `path` ends at (which may not exist yet).
  package static func resolvingLinks(_ path: String) -> String {
    var path = path
    for _ in 0..<40 {
      guard let target = linkTarget(path) else { return path }
      path =
        target.hasPrefix("/")
        ? target
        : ((path as NSString).deletingLastPathComponent as NSString)
          .appendingPathComponent(target)
    }
    return path
  }

  /// What identifies a version of the file at `path` without reading it (device, inode, size,
  /// modification time), or nil when there is no file.
  package static func stamp(_ path: String) -> [Int] {
    var info = stat()
    guard stat(path, &info) == 0 else { return [] }
    #if canImport(Darwin)
      let modified = info.st_mtimespec
    #else
      let modified = info.st_mtim
    #endif
    return [
      Int(info.st_dev), Int(info.st_ino), Int(info.st_size), Int(modified.tv_sec),
      Int(modified.tv_nsec),
    ]
  }
}
