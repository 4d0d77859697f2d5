import Foundation

extension Recording {
  /// The version of the JSON format that this version of Statecraft writes and reads.
  ///
  /// Every recording's JSON carries it as `formatVersion`; reading a recording of another
  /// version throws ``RecordingError/unsupportedFormatVersion(found:supported:)``.
  public static var formatVersion: Int { recordingFormatVersion }
}

extension Recording where State: Codable, Action: Codable {
  /// The recording as JSON: `formatVersion`, `stateInterval`, `initialState`, `actions`,
  /// `origins` (`"send"`, `"effect"` or `null` for unknown, one per action), `times` (when each
  /// action was reduced, in microseconds since the recorder was made, or `null`) and
  /// `checkpoints` (`step` and `state`), with sorted keys.
  ///
  /// Recordings written before origins and times existed have neither key, and read with every
  /// origin and time unknown (`nil`); the format version is the same. A recording without
  /// actions is written without them.
  ///
  /// - Throws: An `EncodingError` if a state or an action cannot be encoded.
  public func jsonData() throws -> Data {
    let encoder = RecordingJSON.makeEncoder()
    func encoded(_ state: State, under shared: SharedSnapshot?) throws -> Data {
      guard let shared else { return try encoder.encode(state) }
      return try shared.whileReading { try encoder.encode(state) }
    }
    var json = RecordingJSON(
      initialState: try encoded(initialState, under: initialShared), stateInterval: stateInterval)
    json.actions = try actions.map { try encoder.encode($0) }
    json.origins = origins
    json.times = times
    json.checkpoints = try checkpoints.map {
      (step: $0.step, state: try encoded($0.state, under: $0.shared))
    }
    return json.data()
  }

  /// Reads a recording from the JSON that ``jsonData()`` wrote.
  ///
  /// - Throws: A ``RecordingError`` that says what is wrong and how to fix it: empty data, JSON
  ///   cut short, data that is not JSON or not a recording, another format version, states or
  ///   actions that no longer decode, or a recording that contradicts itself.
  public init(jsonData: Data) throws(RecordingError) {
    // NB: empty and cut-short data are told apart before decoding, so that they are never
    // blamed on a changed State or Action.
    switch JSONShape(jsonData) {
    case .empty: throw .empty
    case .unfinished: throw .truncated(byteCount: jsonData.count)
    case .complete: break
    }
    do {
      self = try JSONDecoder().decode(Recording.self, from: jsonData)
    } catch let error as RecordingError {
      throw error
    } catch {
      if (try? JSONSerialization.jsonObject(with: jsonData, options: .fragmentsAllowed)) == nil {
        throw .notJSON
      }
      throw .undecodable(describeDecoding(error))
    }
  }

  /// Writes the recording's JSON to the file at `url`, replacing it.
  public func write(to url: URL) throws {
    try jsonData().write(to: url, options: .atomic)
  }

  /// Reads a recording from the JSON file at `url`.
  ///
  /// - Throws: A ``RecordingError``: ``RecordingError/unreadable(path:reason:)`` when the file
  ///   can't be read, or what ``init(jsonData:)`` throws.
  public init(contentsOf url: URL) throws(RecordingError) {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadable(path: url.path, reason: describeFileError(error, at: url))
    }
    try self.init(jsonData: data)
  }
}

extension Recording: Encodable where State: Encodable, Action: Encodable {
  /// Encodes the recording and its format version.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: RecordingCodingKeys.self)
    try container.encode(recordingFormatVersion, forKey: .formatVersion)
    try container.encode(stateInterval, forKey: .stateInterval)
    // NB: a shared value in a stored state is encoded as it was at that step.
    if let initialShared {
      try initialShared.whileReading { try container.encode(initialState, forKey: .initialState) }
    } else {
      try container.encode(initialState, forKey: .initialState)
    }
    try container.encode(actions, forKey: .actions)
    // NB: an empty recording is written as before origins and times existed: it reads the same.
    if !actions.isEmpty {
      try container.encode(origins, forKey: .origins)
      try container.encode(times.map { $0.map(microseconds) }, forKey: .times)
    }
    try container.encode(checkpoints, forKey: .checkpoints)
  }
}

extension Recording: Decodable where State: Decodable, Action: Decodable {
  /// Decodes a recording, checking its format version first and its checkpoints last.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: RecordingCodingKeys.self)
    guard let version = try? container.decode(Int.self, forKey: .formatVersion) else {
      throw RecordingError.notARecording
    }
    guard version == recordingFormatVersion else {
      throw RecordingError.unsupportedFormatVersion(
        found: version, supported: recordingFormatVersion)
    }
    // NB: `origins` and `times` are absent from recordings written before they existed: every
    // origin and time of those is unknown.
    let times = try container.decodeIfPresent([Int64?].self, forKey: .times)
    self.init(
      initialState: try container.decode(State.self, forKey: .initialState),
      actions: try container.decode([Action].self, forKey: .actions),
      checkpoints: try container.decode([Checkpoint].self, forKey: .checkpoints),
      stateInterval: try container.decode(Int.self, forKey: .stateInterval),
      origins: try container.decodeIfPresent([ActionOrigin?].self, forKey: .origins),
      times: times?.map { $0.map { Duration.microseconds($0) } })
    try validate()
  }
}

extension Recording.Checkpoint: Encodable where State: Encodable {
  /// Encodes the step and its state.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CheckpointCodingKeys.self)
    try container.encode(step, forKey: .step)
    if let shared {
      try shared.whileReading { try container.encode(state, forKey: .state) }
    } else {
      try container.encode(state, forKey: .state)
    }
  }
}

extension Recording.Checkpoint: Decodable where State: Decodable {
  /// Decodes a step and its state.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CheckpointCodingKeys.self)
    self.init(
      step: try container.decode(Int.self, forKey: .step),
      state: try container.decode(State.self, forKey: .state))
  }
}

// MARK: - Helpers

/// Whether data holds JSON that ends: the brackets and quotes it opens are closed.
enum JSONShape {
  /// Nothing but white space.
  case empty
  /// It stops inside a string, an object or an array.
  case unfinished
  /// Every string, object and array it opens is closed (it may still be invalid JSON).
  case complete

  init(_ data: Data) {
    var depth = 0
    var inString = false
    var escaped = false
    var sawValue = false
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      default: break
      }
      sawValue = true
    }
    if !sawValue {
      self = .empty
    } else if inString || depth > 0 {
      self = .unfinished
    } else {
      self = .complete
    }
  }
}

/// A file error in words ("there is no such file"), never a Foundation error dump.
func describeFileError(_ error: any Error, at url: URL) -> String {
  let nsError = error as NSError
  if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
    underlying.domain == NSPOSIXErrorDomain
  {
    return posixWords(Int32(underlying.code))
  }
  if nsError.domain == NSPOSIXErrorDomain { return posixWords(Int32(nsError.code)) }
  if let error = error as? CocoaError {
    switch error.code {
    case .fileNoSuchFile, .fileReadNoSuchFile: return "there is no such file"
    case .fileReadNoPermission: return "permission denied"
    case .fileReadCorruptFile, .fileReadUnknown:
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
        isFolder.boolValue
      {
        return "it is a folder, not a file"
      }
      return "reading it failed"
    default: return "reading it failed"
    }
  }
  return "reading it failed"
}

private func posixWords(_ code: Int32) -> String {
  let text = String(cString: strerror(code))
  return text.prefix(1).lowercased() + text.dropFirst()
}

let recordingFormatVersion = 1

/// The one writer of a recording's JSON, from its parts, each state and action already encoded
/// by ``makeEncoder()``: ``Recording/jsonData()`` writes through it, and so does the Inspector's
/// export, which encodes a session's actions a slice at a time and keeps no `Recording`.
///
/// It writes what the `Encodable` conformance of ``Recording`` writes with the same encoder, byte
/// for byte (`RecordingJSONTests` checks it): sorted keys, a checkpoint as `{"state":…,"step":…}`,
/// and no origins nor times when there is no action.
package struct RecordingJSON {
  /// The initial state, encoded.
  package var initialState: Data
  /// Each action, encoded.
  package var actions: [Data] = []
  /// One per action (nil: unknown).
  package var origins: [ActionOrigin?] = []
  /// One per action: when it was reduced (nil: unknown).
  package var times: [Duration?] = []
  /// The stored states, each encoded, in step order.
  package var checkpoints: [(step: Int, state: Data)] = []
  package var stateInterval: Int

  package init(initialState: Data, stateInterval: Int) {
    self.initialState = initialState
    self.stateInterval = stateInterval
  }

  /// The encoder of a recording's states and actions: sorted keys, as a recording is written.
  package static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  /// The recording's JSON.
  package func data() -> Data {
    var data = Data()
    func append(_ text: String) { data.append(contentsOf: text.utf8) }
    func appendList<Element>(_ elements: [Element], _ write: (Element) -> Void) {
      append("[")
      for (index, element) in elements.enumerated() {
        if index > 0 { append(",") }
        write(element)
      }
      append("]")
    }
    func key(_ key: RecordingCodingKeys) { append("\"\(key.stringValue)\":") }
    // NB: the keys in sorted order, as the encoder writes them.
    append("{")
    key(.actions)
    appendList(actions) { data.append($0) }
    append(",")
    key(.checkpoints)
    appendList(checkpoints) { checkpoint in
      append("{\"\(CheckpointCodingKeys.state.stringValue)\":")
      data.append(checkpoint.state)
      append(",\"\(CheckpointCodingKeys.step.stringValue)\":\(checkpoint.step)}")
    }
    append(",")
    key(.formatVersion)
    append("\(recordingFormatVersion),")
    key(.initialState)
    data.append(initialState)
    // NB: an empty recording is written as before origins and times existed: it reads the same.
    if !actions.isEmpty {
      append(",")
      key(.origins)
      appendList(origins) { append($0.map { "\"\($0.rawValue)\"" } ?? "null") }
    }
    append(",")
    key(.stateInterval)
    append("\(stateInterval)")
    if !actions.isEmpty {
      append(",")
      key(.times)
      appendList(times) { append($0.map { "\(microseconds($0))" } ?? "null") }
    }
    append("}")
    return data
  }
}

enum RecordingCodingKeys: String, CodingKey {
  case formatVersion, stateInterval, initialState, actions, origins, times, checkpoints
}

/// A duration in whole microseconds, rounded down: how a recording's JSON writes its times.
package func microseconds(_ duration: Duration) -> Int64 {
  let (seconds, attoseconds) = duration.components
  return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
}

enum CheckpointCodingKeys: String, CodingKey {
  case step, state
}
