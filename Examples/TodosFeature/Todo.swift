/// One todo: a title, whether it is done, and notes.
public struct Todo: Codable, Equatable, Identifiable, Sendable {
  public var id: Int
  public var title: String
  public var isDone: Bool
  /// Free text, edited on the todo's detail screen; empty for most todos.
  public var notes: String

  /// The most characters a title typed or pasted may have: a todo's title is a line, not a
  /// document. A longer one is refused with a notice.
  public static let titleLimit = 1_000
  /// The most characters notes typed or pasted may have.
  public static let notesLimit = 10_000

  public init(id: Int, title: String, isDone: Bool = false, notes: String = "") {
    self.id = id
    self.title = title
    self.isDone = isDone
    self.notes = notes
  }

  enum CodingKeys: String, CodingKey { case id, title, isDone, notes }

  // NB: notes are written only when there are some, and read as empty when absent, so that
  // files written before notes existed read as they are, and are written as they were.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    isDone = try container.decode(Bool.self, forKey: .isDone)
    notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encode(isDone, forKey: .isDone)
    if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
  }
}

/// Which todos the list shows.
public enum TodoFilter: String, CaseIterable, Codable, Sendable {
  case all, active, done

  /// Whether the filter shows `todo`.
  public func shows(_ todo: Todo) -> Bool {
    switch self {
    case .all: return true
    case .active: return !todo.isDone
    case .done: return todo.isDone
    }
  }

  /// The filter after this one, for a key that cycles through them.
  public var next: TodoFilter {
    switch self {
    case .all: return .active
    case .active: return .done
    case .done: return .all
    }
  }
}

/// Where a sync with the (simulated) server stands.
public enum SyncStatus: Codable, Equatable, Sendable {
  case idle
  /// Syncing; `percent` goes from 0 to 100.
  case syncing(percent: Int)
  case synced(count: Int)
  case cancelled
}
