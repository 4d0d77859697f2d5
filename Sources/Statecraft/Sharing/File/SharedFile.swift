import ConcurrencyExtras
import Foundation

/// One file of a ``SharedStorage``: what was last read or written (to detect outside changes),
/// the write waiting for its delay, and the watch.
///
/// NB: `@unchecked Sendable`: every mutable field is read and written under `lock`; writes to
/// the file are serialized by `writeLock`.
final class SharedFile: @unchecked Sendable {
  let url: URL
  private let files: SharedFileSystem
  private let clock: any Clock<Duration>
  private let delay: Duration
  private let pollInterval: Duration
  private let lock = NSLock()
  private let writeLock = NSLock()
  /// The file's contents as last read or written (`.some(nil)`: there was no file).
  private var known: HeldBytes?? = nil
  private var stamp: [Int] = []
  /// The write waiting for its delay: it encodes the value when it runs, so that a burst of
  /// changes costs one encoding, not one per change.
  private var pending: Encode?
  private var timer: Task<Void, Never>?
  /// Why the file must not be written (it is corrupt or unreadable), if it must not.
  private var blocked: FileStorageError?
  /// Where the value is written since the file changed on disk under a pending write.
  private var conflictCopy: URL?
  private var subscribers: [UUID: (fail: @Sendable (any Error) -> Void, poll: () -> Void)] = [:]

  init(url: URL, storage: SharedStorage) {
    self.url = url
    self.files = storage.files
    self.clock = storage.clock
    self.delay = storage.fileWriteDelay
    self.pollInterval = storage.filePollInterval
    SharedFile.registerForExit(self)
  }

  // NB: a write still waiting for its delay is written now, and its timer is cancelled: a timer
  // left sleeping on a clock that goes away with its storage (a test's TestClock) would never
  // wake, and its task would never end.
  deinit {
    flush()
  }

  /// Reads the file (a missing one is nil), removing what a crashed run left beside it. A file
  /// of more than `limit` bytes is not read.
  func load(limit: Int) throws(FileStorageError) -> Data? {
    files.removeStaleTemporaryFiles(besides: url)
    let stamp = files.stamp(of: url)
    let data: Data?
    do throws(FileStorageError) {
      data = try files.contents(of: url, limit: limit)
    } catch {
      block(error)
      throw error
    }
    lock.withLock {
      known = .some(data.map(HeldBytes.init))
      self.stamp = stamp
    }
    return data
  }

  /// Never writes the file: it could not be read or decoded.
  func block(_ error: FileStorageError) {
    lock.withLock { blocked = error }
  }

  /// Writes what `encode` makes after the delay (with what comes before then, the last wins).
  ///
  /// After a write, the timer waits the delay again before the next one: a long burst of
  /// changes to a value that takes long to write (a list of 100,000 todos) is written every
  /// delay plus write time, not back to back.
  func schedule(_ encode: @escaping @Sendable () throws(FileStorageError) -> Data) {
    lock.withLock {
      pending = encode
      guard timer == nil, blocked == nil else { return }
      // NB: made under the lock: the timer's check of `pending` can't come between this check
      // and the timer being set, which would leave a stale timer and the change unwritten.
      timer = Task { [weak self, clock, delay] in
        while true {
          do { try await clock.sleep(for: delay) } catch { return }
          guard let self, self.writeFromTimer() else { return }
        }
      }
    }
  }

  /// The timer's write: the pending value, if any. False when nothing was pending (or the file
  /// must not be written): the timer then ends, and the next change starts a new one.
  private func writeFromTimer() -> Bool {
    writeLock.lock()
    defer { writeLock.unlock() }
    let taken = lock.withLock { () -> (Encode, HeldBytes??, URL?)? in
      guard let pending, blocked == nil else {
        timer = nil
        return nil
      }
      self.pending = nil
      return (pending, known, conflictCopy)
    }
    guard let (encode, expected, copy) = taken else { return false }
    write(encode, expected: expected, copy: copy)
    return true
  }

  /// Writes the pending data now, if any.
  func flush() {
    writeLock.lock()
    defer { writeLock.unlock() }
    let (encode, expected, copy, blocked, timer) = lock.withLock {
      defer {
        self.timer = nil
        if self.blocked == nil { pending = nil }
      }
      return (pending, known, conflictCopy, self.blocked, self.timer)
    }
    // NB: a flush before the delay ends stops the timer: left sleeping, it would hold its task
    // until the clock reaches the deadline, and forever on a clock that never does (a test's).
    timer?.cancel()
    guard let encode, blocked == nil else { return }
    write(encode, expected: expected, copy: copy)
  }

  typealias Encode = @Sendable () throws(FileStorageError) -> Data

  /// Writes what `encode` makes to the file if it is still `expected`, else beside it; tells
  /// the subscribers of a failure. Runs under `writeLock`.
  private func write(_ encode: Encode, expected: HeldBytes??, copy: URL?) {
    let failure: (any Error)?
    var data = Data()
    do throws(FileStorageError) {
      data = try encode()
      if let copy {
        try files.replace(copy, with: data, ifUnchangedFrom: nil)
        failure = nil
      } else {
        let unchanged: HeldBytes? = expected ?? nil
        try files.replace(url, with: data, ifUnchangedFrom: .some(unchanged?.data))
        lock.withLock {
          known = .some(HeldBytes(data))
          stamp = files.stamp(of: url)
        }
        failure = nil
      }
    } catch .changedOnDisk {
      failure = saveBeside(data)
    } catch {
      failure = error
    }
    if let failure {
      for subscriber in lock.withLock({ Array(subscribers.values) }) { subscriber.fail(failure) }
    }
  }

  /// The file changed on disk under a pending write: writes `data` to a new file beside it.
  private func saveBeside(_ data: Data) -> FileStorageError {
    let folder = url.deletingLastPathComponent()
    let stem = url.deletingPathExtension().lastPathComponent
    let suffix = url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"
    var number = 1
    while true {
      let candidate = folder.appendingPathComponent("\(stem).conflict-\(number)\(suffix)")
      number += 1
      if files.exists(candidate) { continue }
      do throws(FileStorageError) {
        try files.replace(candidate, with: data, ifUnchangedFrom: .some(nil))
      } catch .changedOnDisk {
        continue
      } catch {
        return error
      }
      lock.withLock { conflictCopy = candidate }
      return .savedBeside(path: url.path, copy: candidate.path)
    }
  }

  /// Polls the file for outside changes and tells `subscriber` about them. A file of more than
  /// `limit` bytes is not read.
  ///
  /// An outside change that can't be decoded (another program wrote something else, or more
  /// than `limit` bytes) is reported, and the value held stays as it was. It is not loaded, and
  /// the file is not taken for what was last read: a change of the value then finds the file
  /// changed, and is saved beside it, never over it, and never dropped.
  func watch<Value>(
    limit: Int,
    decode: @escaping @Sendable (Data) throws -> Value,
    describe: @escaping @Sendable (any Error, Data) -> String,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    let id = UUID()
    let poll = { [weak self] in
      guard let self else { return }
      switch self.changedValue(limit: limit, decode: decode, describe: describe) {
      case .success(let value)?: subscriber.yield(value)
      case .failure(let failure)?: subscriber.yield(error: failure)
      case nil: break
      }
    }
    lock.withLock { subscribers[id] = (subscriber.fail, poll) }
    let task = Task { [weak self, clock, pollInterval] in
      while !Task.isCancelled {
        do { try await clock.sleep(for: pollInterval) } catch { return }
        guard let self else { return }
        self.poll()
      }
    }
    return SharedSubscription { [weak self] in
      task.cancel()
      guard let self else { return }
      // NB: `self` is held until the lock is released. Written `self?.lock.withLock { self?… }`,
      // the optimizer released the outer reference once it had the lock, and the inner one,
      // when it was the last, ran `deinit` inside the lock: its flush took the same lock, and
      // the thread waited on itself forever (a release build of todos hung at exit).
      withExtendedLifetime(self) {
        self.lock.withLock { _ = self.subscribers.removeValue(forKey: id) }
      }
    }
  }

  /// Checks the file once for an outside change (what the watch does at each interval).
  func poll() {
    for subscriber in lock.withLock({ Array(subscribers.values) }) { subscriber.poll() }
  }

  /// The file's value if another process changed it since it was last read or written and no
  /// write of ours is pending, or why that value can't be read; nil when nothing changed.
  private func changedValue<Value>(
    limit: Int,
    decode: (Data) throws -> Value,
    describe: (any Error, Data) -> String
  ) -> Result<Value, FileStorageError>? {
    // NB: a write in flight (which may wait long for the folder's lock, held by another
    // process) is not waited for: the poll runs on a thread of the concurrency pool, and two
    // such threads blocked are the whole pool of a two-core machine. The next poll looks.
    guard writeLock.try() else { return nil }
    defer { writeLock.unlock() }
    let stamp = files.stamp(of: url)
    let (previousStamp, known, pending, copy) = lock.withLock {
      (self.stamp, self.known, self.pending, self.conflictCopy)
    }
    guard stamp != previousStamp, copy == nil else { return nil }
    let data: Data
    do throws(FileStorageError) {
      guard let contents = try files.contents(of: url, limit: limit) else { return nil }
      data = contents
    } catch .tooLarge(let path, let size, let limit) {
      lock.withLock { self.stamp = stamp }
      return .failure(.tooLarge(path: path, size: size, limit: limit))
    } catch {
      return nil
    }
    lock.withLock { self.stamp = stamp }
    // NB: a pending write of ours finds the change when it checks the file, and saves beside
    // it: neither side is lost.
    guard pending == nil, known != .some(HeldBytes(data)) else { return nil }
    do {
      let value = try decode(data)
      lock.withLock {
        self.known = .some(HeldBytes(data))
        blocked = nil
      }
      return .success(value)
    } catch {
      // NB: `known` stays what was last read or written, so that the next write finds the file
      // changed and goes beside it. Blocking writes instead, as for a file that can't be loaded,
      // would drop every change made from now on without a word.
      return .failure(.corrupt(path: url.path, reason: describe(error, data)))
    }
  }

  // MARK: - Exit

  private static let live = LockIsolated<[WeakSharedFile]>([])

  private static func registerForExit(_ file: SharedFile) {
    live.withValue { files in
      if files.isEmpty { atexit { SharedFile.flushAll() } }
      files.removeAll { $0.value == nil }
      files.append(WeakSharedFile(value: file))
    }
  }

  static func flushAll() {
    for file in live.value { file.value?.flush() }
  }
}

struct WeakSharedFile: Sendable {
  weak var value: SharedFile?
}

extension SharedStorage {
  /// The file at `url` in this storage.
  func file(at url: URL) -> SharedFile {
    let path = url.standardizedFileURL.path
    return fileRecords.withValue { files in
      if let file = files[path] { return file }
      let file = SharedFile(url: url, storage: self)
      files[path] = file
      return file
    }
  }

  func files(matching predicate: (SharedFile) -> Bool) -> [SharedFile] {
    fileRecords.value.values.filter(predicate)
  }
}
