import Clocks
import ConcurrencyExtras
import Foundation
import Observation
import Testing

@testable import Statecraft

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Engine {
  @MainActor
  @Suite struct FileStorageTests {
    let clock = TestClock()
    let url = URL(fileURLWithPath: "/settings/settings.json")

    func storage(files: SharedFileSystem = .inMemory()) -> SharedStorage {
      SharedStorage(files: files, defaults: .inMemory(), clock: clock)
    }

    func json(_ settings: Settings) throws -> Data {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      return try encoder.encode(settings)
    }

    func decoded(_ data: Data?) throws -> Settings? {
      try data.map { try JSONDecoder().decode(Settings.self, from: $0) }
    }

    @Test func writesAreDeferredAndABurstIsOneWrite() async throws {
      let storage = storage()
      let settings = withSharedStorage(storage) {
        Shared(wrappedValue: Settings(), .fileStorage(url))
      }
      settings.theme = "dark"
      settings.fontSize = 20
      settings.fontSize = 22
      #expect(try storage.files.contents(of: url) == nil)
      await clock.advance(by: .milliseconds(999))
      #expect(try storage.files.contents(of: url) == nil)
      await clock.advance(by: .milliseconds(1))
      #expect(try decoded(storage.files.contents(of: url)) == Settings(theme: "dark", fontSize: 22))
      #expect(storage.files.stamp(of: url) == [1])
    }

    /// After a write the timer waits one delay more: a change made meanwhile is written at its
    /// end, one delay after the last write (so writes of a value that takes long to write are
    /// spaced); then, with nothing pending, the timer ends and the next change waits a delay.
    @Test func writesAreSpacedByTheDelayAndTheTimerEndsWhenNothingIsPending() async throws {
      let storage = storage()
      let settings = withSharedStorage(storage) {
        Shared(wrappedValue: Settings(), .fileStorage(url))
      }
      settings.theme = "dark"
      await clock.advance(by: .seconds(1))
      #expect(storage.files.stamp(of: url) == [1])
      await clock.advance(by: .milliseconds(500))
      settings.fontSize = 20
      await clock.advance(by: .milliseconds(499))
      #expect(storage.files.stamp(of: url) == [1])
      await clock.advance(by: .milliseconds(1))
      #expect(storage.files.stamp(of: url) == [2])
      #expect(try decoded(storage.files.contents(of: url))?.fontSize == 20)
      await clock.advance(by: .seconds(1))
      settings.fontSize = 22
      await clock.advance(by: .milliseconds(999))
      #expect(storage.files.stamp(of: url) == [2])
      await clock.advance(by: .milliseconds(1))
      #expect(try decoded(storage.files.contents(of: url))?.fontSize == 22)
    }

    @Test func whatIsUnwrittenIsWrittenByAFlush() throws {
      let storage = storage()
      let settings = withSharedStorage(storage) {
        Shared(wrappedValue: Settings(), .fileStorage(url))
      }
      settings.theme = "dark"
      storage.flushPendingWrites()
      #expect(try decoded(storage.files.contents(of: url))?.theme == "dark")
    }

    @Test func aValueSurvivesARestart() throws {
      let files = SharedFileSystem.inMemory()
      withSharedStorage(storage(files: files)) {
        let settings = Shared(wrappedValue: Settings(), .fileStorage(url))
        settings.theme = "dark"
      }
      SharedFile.flushAll()
      let restarted = withSharedStorage(storage(files: files)) {
        Shared(wrappedValue: Settings(), .fileStorage(url))
      }
      #expect(restarted.theme == "dark")
    }

    @Test func anEditMadeOutsideTheProcessIsPickedUp() async throws {
      let storage = storage()
      try storage.files.setContents(json(Settings()), of: url)
      let settings = withSharedStorage(storage) {
        Shared(wrappedValue: Settings(), .fileStorage(url))
      }
      let notified = LockIsolated(0)
      withObservationTracking {
        _ = settings.theme
      } onChange: {
        notified.withValue { $0 += 1 }
      }
      try storage.files.setContents(json(Settings(theme: "dark")), of: url)
      await clock.advance(by: .seconds(1))
      #expect(settings.theme == "dark")
      #expect(notified.value == 1)
    }

    @Test func aCorruptFileIsReportedAndNeverOverwritten() async throws {
      let storage = storage()
      let corrupt = Data("{ not json".utf8)
      try storage.files.setContents(corrupt, of: url)
      var settings: Shared<Settings>?
      withKnownIssue {
        settings = withSharedStorage(storage) {
          Shared(wrappedValue: Settings(), .fileStorage(url))
        }
      } matching: {
        $0.description.contains("can't be decoded: it is not valid JSON")
      }
      #expect(settings?.wrappedValue == Settings())
      #expect(
        settings?.error as? FileStorageError
          == .corrupt(path: url.path, reason: "it is not valid JSON"))
      settings?.theme = "dark"
      await clock.advance(by: .seconds(5))
      storage.flushPendingWrites()
      #expect(try storage.files.contents(of: url) == corrupt)
    }

    @Test func aFileChangedOnDiskUnderAPendingWriteIsNotClobbered() async throws {
      let storage = storage()
      try storage.files.setContents(json(Settings()), of: url)
      let settings = withSharedStorage(storage) {
        Shared(wrappedValue: Settings(), .fileStorage(url))
      }
      settings.theme = "dark"
      let theirs = try json(Settings(theme: "solarized"))
      try storage.files.setContents(theirs, of: url)
      withKnownIssue {
        storage.flushPendingWrites()
      } matching: {
        $0.description.contains("was not overwritten: the value is saved to")
      }
      #expect(try storage.files.contents(of: url) == theirs)
      let copy = URL(fileURLWithPath: "/settings/settings.conflict-1.json")
      #expect(try decoded(storage.files.contents(of: copy))?.theme == "dark")
      #expect(settings.theme == "dark")
    }

    /// Another program writes something that can't be decoded over the file while the value is
    /// held: it is reported, the value stays, and the next change goes beside the file, neither
    /// over it nor dropped.
    @Test func aFileCorruptedOutsideWhileHeldIsNotLoadedAndTheNextChangeGoesBesideIt() throws {
      let storage = storage()
      try storage.files.setContents(json(Settings()), of: url)
      let settings = withSharedStorage(storage) {
        Shared(wrappedValue: Settings(), .fileStorage(url))
      }
      let garbage = Data("garbage".utf8)
      try storage.files.setContents(garbage, of: url)
      withKnownIssue {
        storage.file(at: url).poll()
      } matching: {
        $0.description.contains("can't be decoded: it is not valid JSON")
      }
      #expect(
        settings.error as? FileStorageError
          == .corrupt(path: url.path, reason: "it is not valid JSON"))
      #expect(settings.wrappedValue == Settings())
      settings.theme = "dark"
      withKnownIssue {
        storage.flushPendingWrites()
      } matching: {
        $0.description.contains("was not overwritten: the value is saved to")
      }
      #expect(try storage.files.contents(of: url) == garbage)
      let copy = URL(fileURLWithPath: "/settings/settings.conflict-1.json")
      #expect(try decoded(storage.files.contents(of: copy))?.theme == "dark")
      #expect(settings.error as? FileStorageError == .savedBeside(path: url.path, copy: copy.path))
    }

    @Test func aFileLargerThanTheMaximumSizeIsNotReadNorWritten() throws {
      let storage = storage()
      let large = try json(Settings(theme: String(repeating: "x", count: 2000)))
      try storage.files.setContents(large, of: url)
      var settings: Shared<Settings>?
      withKnownIssue {
        settings = withSharedStorage(storage) {
          Shared(wrappedValue: Settings(), .fileStorage(url, maximumSize: 1024))
        }
      } matching: {
        $0.description.contains("more than the 1 KiB its key reads, so it was not read")
      }
      #expect(
        settings?.error as? FileStorageError
          == .tooLarge(path: url.path, size: large.count, limit: 1024))
      #expect(settings?.wrappedValue == Settings())
      settings?.theme = "dark"
      storage.flushPendingWrites()
      #expect(try storage.files.contents(of: url) == large)
    }

    /// A write fails after its delay, outside any batch: an `observe` closure that reads the
    /// error runs at once, as the todos demo's notice needs.
    @Test func anObserveClosureSeesAWriteThatFailsOutsideAnyBatch() async throws {
      let storage = storage()
      try storage.files.setContents(json(Settings()), of: url)
      let settings = withSharedStorage(storage) {
        Shared(wrappedValue: Settings(), .fileStorage(url))
      }
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { state, action in
          state += action; return .none
        }
      }
      var seen: [String] = []
      let token = store.observe { _ in
        seen.append(settings.error.map { "\($0)" } ?? "none")
      }
      settings.theme = "dark"
      try storage.files.setContents(json(Settings(theme: "solarized")), of: url)
      withKnownIssue {
        storage.flushPendingWrites()
      } matching: {
        $0.description.contains("was not overwritten")
      }
      // NB: the closures a shared change schedules run from a main-actor task.
      await Task.megaYield()
      #expect(seen.count == 2)
      #expect(seen.last?.contains("the value is saved to") == true)
      token.cancel()
    }

    // MARK: - On disk

    func temporaryFolder() throws -> URL {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("statecraft-shared-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      return folder
    }

    @Test func aWriteOnDiskKeepsTheModeAndTheLinkAndLeavesNoTemporaryFile() throws {
      let folder = try temporaryFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let target = folder.appendingPathComponent("real.json")
      let link = folder.appendingPathComponent("link.json")
      try json(Settings()).write(to: target)
      chmod(target.path, 0o640)
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
      let storage = storage(files: .live)
      let settings = withSharedStorage(storage) {
        Shared(wrappedValue: Settings(), .fileStorage(link))
      }
      settings.theme = "dark"
      storage.flushPendingWrites()
      #expect(try decoded(Data(contentsOf: target))?.theme == "dark")
      #expect(POSIXFile.linkTarget(link.path) != nil)
      var info = stat()
      stat(target.path, &info)
      #expect(info.st_mode & 0o777 == 0o640)
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(names.sorted() == ["link.json", "real.json"])
    }

    @Test func temporaryFilesOfACrashedWriteAreRemovedOnTheNextLoad() throws {
      let folder = try temporaryFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let file = folder.appendingPathComponent("settings.json")
      try json(Settings(theme: "dark")).write(to: file)
      // NB: what a run killed mid-write leaves: the old file, and half a temporary file.
      try Data("{ \"the".utf8).write(to: folder.appendingPathComponent(".settings.json.999.tmp"))
      let settings = withSharedStorage(storage(files: .live)) {
        Shared(wrappedValue: Settings(), .fileStorage(file))
      }
      #expect(settings.theme == "dark")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["settings.json"])
    }

    @Test func aFileOnDiskIsRefusedByItsSizeBeforeItIsRead() throws {
      let folder = try temporaryFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let file = folder.appendingPathComponent("settings.json")
      // NB: a sparse file: it takes no room, and reading it would take 4 GiB.
      #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
      #expect(truncate(file.path, 4 << 30) == 0)
      var settings: Shared<Settings>?
      withKnownIssue {
        settings = withSharedStorage(storage(files: .live)) {
          Shared(wrappedValue: Settings(), .fileStorage(file))
        }
      } matching: {
        $0.description.contains("is 4 GiB, more than the 64 MiB its key reads")
      }
      #expect(
        settings?.error as? FileStorageError
          == .tooLarge(path: file.path, size: 4 << 30, limit: 64 << 20))
    }

    @Test func anEditOnDiskIsPickedUp() async throws {
      let folder = try temporaryFolder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let file = folder.appendingPathComponent("settings.json")
      let settings = withSharedStorage(storage(files: .live)) {
        Shared(wrappedValue: Settings(), .fileStorage(file))
      }
      try json(Settings(theme: "dark")).write(to: file)
      await clock.advance(by: .seconds(1))
      #expect(settings.theme == "dark")
    }
  }
}
