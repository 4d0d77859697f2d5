import Foundation
import Testing
import TodosFeature

extension Engine {
  /// The file a todos session is recorded to (`todos --record PATH`).
  @Suite struct RecordingFileTests {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("statecraft-recording-\(UUID().uuidString)")

    func write(_ text: String, to url: URL) throws {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }

    @Test func temporaryFilesOfACrashedRecordingAreRemovedWhenTheRecordingIsWritten() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      let recording = folder.appendingPathComponent("session.json")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try write("half a recor", to: folder.appendingPathComponent(".session.json.4242.tmp"))
      try write("someone else's", to: folder.appendingPathComponent(".other.json.4242.tmp"))
      try RecordingFile.checkWritable(recording)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
          == [".other.json.4242.tmp", ".session.json.4242.tmp"])
      try RecordingFile.write(Data("{}".utf8), to: recording)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
          == [".other.json.4242.tmp", "session.json"])
      #expect(try String(contentsOf: recording, encoding: .utf8) == "{}")
    }

    @Test func aRecordingIsWrittenThroughASymlinkAndKeepsItsMode() throws {
      defer { try? FileManager.default.removeItem(at: folder) }
      let target = folder.appendingPathComponent("real/session.json")
      let link = folder.appendingPathComponent("session.json")
      try write("old", to: target)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
      try FileManager.default.createSymbolicLink(
        atPath: link.path, withDestinationPath: "real/session.json")
      try RecordingFile.checkWritable(link)
      try RecordingFile.write(Data("{}".utf8), to: link)
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real/session.json")
      #expect(try String(contentsOf: target, encoding: .utf8) == "{}")
      let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions]
      #expect(mode as? Int == 0o600)
    }

    @Test func aRecordingPathThatCantBeWrittenIsRefusedInWords() {
      let missing = folder.appendingPathComponent("no/such/folder/session.json")
      let error = #expect(throws: RecordingFile.Failure.self) {
        try RecordingFile.checkWritable(missing)
      }
      #expect(
        error?.reason == "its folder \(missing.deletingLastPathComponent().path) does not exist")
      #expect(RecordingFile.notARegularFile(at: URL(fileURLWithPath: "/dev/null")) != nil)
      #expect(RecordingFile.notARegularFile(at: missing) == nil)
    }
  }
}
