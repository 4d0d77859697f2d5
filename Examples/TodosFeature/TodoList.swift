import Foundation
import IdentifiedCollections

/// The todo list as the todo file holds it, for keeping it in a file-backed shared value:
///
/// ```swift
/// let list = Shared(wrappedValue: TodoList(), .fileStorage(TodoFile.defaultURL()))
/// ```
///
/// It encodes to the format ``TodoFile`` reads and writes (`{"todos": [...], "version": 1}`,
/// notes written only when present), so a file written by either reads back in the other.
/// Decoding rejects a file of another format version and a file where two todos share an id.
///
/// `TodoListFileTests` checks that a file the app wrote loads as a shared list, and that a
/// shared list survives a restart (`aFileTheAppWroteLoadsAsASharedList`,
/// `aSharedListSurvivesARestartOnDisk`).
public struct TodoList: Codable, Equatable, Sendable {
  /// The todos, in order.
  public var todos: IdentifiedArrayOf<Todo>

  /// The format version this app reads and writes.
  public static let version = 1

  public init(todos: IdentifiedArrayOf<Todo> = []) {
    self.todos = todos
  }

  enum CodingKeys: String, CodingKey { case version, todos }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let version = try container.decode(Int.self, forKey: .version)
    guard version == Self.version else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container,
        debugDescription: "format version \(version); this app reads version \(Self.version)")
    }
    var todos = IdentifiedArrayOf<Todo>()
    for todo in try container.decode([Todo].self, forKey: .todos) {
      guard todos.append(todo).inserted else {
        throw DecodingError.dataCorruptedError(
          forKey: .todos, in: container, debugDescription: "two todos have the id \(todo.id)")
      }
    }
    self.todos = todos
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.version, forKey: .version)
    try container.encode(Array(todos), forKey: .todos)
  }
}
