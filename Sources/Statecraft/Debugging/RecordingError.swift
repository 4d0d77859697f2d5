import Foundation

/// Why a recording could not be read.
public enum RecordingError: Error, Equatable, CustomStringConvertible, LocalizedError {
  /// The recording was written in a format version this version of Statecraft does not read.
  case unsupportedFormatVersion(found: Int, supported: Int)
  /// The data is not a Statecraft recording (it has no format version).
  case notARecording
  /// The data is empty: nothing was recorded into it (the session that was to write it ended
  /// before it could, or the file was only created).
  case empty
  /// The data stops in the middle of the JSON (after `byteCount` bytes): the file was cut
  /// short, by a crash while it was written or a copy that did not finish.
  case truncated(byteCount: Int)
  /// The data is not JSON at all.
  case notJSON
  /// The file at `path` could not be read; `reason` says why, in words.
  case unreadable(path: String, reason: String)
  /// The data is a recording, but its states or actions could not be decoded: usually `State`
  /// or `Action` changed since it was recorded. The associated text is the decoder's.
  case undecodable(String)
  /// The recording contradicts itself (a stored state for a step it doesn't have). The
  /// associated text says how.
  case inconsistent(String)

  /// What went wrong and how to fix it.
  public var description: String {
    switch self {
    case .unsupportedFormatVersion(let found, let supported):
      """
      The recording is in format version \(found), but this version of Statecraft reads \
      format version \(supported) only. Replay it with the version of Statecraft that recorded \
      it, or record the session again.
      """
    case .notARecording:
      """
      The data is not a Statecraft recording: it has no 'formatVersion'. Pass the JSON that \
      'Recording.jsonData()' or 'Recording.write(to:)' produced.
      """
    case .empty:
      """
      The recording is empty: nothing was written into it. The session that should have \
      written it probably ended before it could; record the session again.
      """
    case .truncated(let byteCount):
      """
      The recording is cut short: its JSON stops after \(byteCount) bytes, in the middle. It \
      was probably being written or copied when that stopped; record the session again, or \
      copy the whole file.
      """
    case .notJSON:
      """
      The data is not a Statecraft recording: it is not JSON. Pass the JSON that \
      'Recording.jsonData()' or 'Recording.write(to:)' produced.
      """
    case .unreadable(let path, let reason):
      """
      The recording \(path) can't be read: \(reason). Check the path, and that it is a file \
      you may read.
      """
    case .undecodable(let reason):
      """
      The recording's states or actions could not be decoded: \(reason)
      This usually means that 'State' or 'Action' changed since the session was recorded. \
      Decode it with the types it was recorded with, or record the session again.
      """
    case .inconsistent(let reason):
      """
      The recording is inconsistent: \(reason). It was not written by 'Recording.jsonData()' \
      or was edited since; record the session again.
      """
    }
  }

  /// The same as ``description``.
  public var errorDescription: String? { description }
}
