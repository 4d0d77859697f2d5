/// One todo: a title and whether it is done.
public struct Todo: Codable, Equatable, Identifiable, Sendable {
  public var id: Int
  public var title: String
  public var isDone: Bool

  public init(id: Int, title: String, isDone: Bool = false) {
    self.id = id
    self.title = title
    self.isDone = isDone
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
