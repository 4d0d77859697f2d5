import Foundation
import IdentifiedCollections

// Owns the shared values derived from an optional one: an element of a shared identified array
// by its id, and the unwrapping of a `Shared<Value?>` (swift-sharing's `Shared($items[id: id])`).

extension Shared {
  /// The element with `id` of a shared identified array, as a shared value of its own: nil
  /// while no element has that id. Unwrap it with ``init(_:)`` to hand a child feature its
  /// element.
  ///
  /// ```swift
  /// @Shared(.fileStorage(.todos)) var todos: IdentifiedArrayOf<Todo> = []
  /// let todo: Shared<Todo?> = $todos[id: id]
  /// ```
  public subscript<ID: Hashable & Sendable, Element: Sendable>(id id: ID) -> Shared<Element?>
  where Value == IdentifiedArray<ID, Element> {
    Shared<Element?>(projection: projected(\.[id: id], isWritable: true))
  }

  /// Unwraps a shared optional: nil when it is nil now; otherwise a shared value that reads and
  /// writes the wrapped value. swift-sharing's spelling for a child feature that edits one
  /// element of a shared collection:
  ///
  /// ```swift
  /// guard let todo = Shared($todos[id: id]) else { return .none }
  /// state.destination = .edit(EditTodo.State(todo: todo))
  /// ```
  ///
  /// When the wrapped value goes away later (the element is removed), the unwrapped value keeps
  /// reading the last value it saw, and a write to it changes only what it reads: it never puts
  /// the element back. A child that is still presented over a deleted element shows the element
  /// as it was, instead of crashing as a force-unwrap would.
  public init?(_ base: Shared<Value?>) {
    guard let value = base.currentValue else { return nil }
    self.init(
      projection: base.projected(
        \Value?.[unwrappingOr: LastUnwrappedValue(value)], isWritable: true))
  }
}

/// The last value an unwrapped shared optional read or wrote: what it reads once the optional is
/// nil.
// NB: @unchecked Sendable is safe: `value` is read and written under `lock` only. Equal by
// identity, so that each unwrapping is a key path of its own.
final class LastUnwrappedValue<Value: Sendable>: Hashable, @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  var current: Value {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }

  static func == (lhs: LastUnwrappedValue, rhs: LastUnwrappedValue) -> Bool { lhs === rhs }

  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

extension Optional where Wrapped: Sendable {
  /// The wrapped value, or the last one seen while it is nil; a write while it is nil is kept
  /// in `last` and does not make the optional non-nil.
  subscript(unwrappingOr last: LastUnwrappedValue<Wrapped>) -> Wrapped {
    get {
      guard let self else { return last.current }
      last.current = self
      return self
    }
    set {
      last.current = newValue
      if self != nil { self = newValue }
    }
  }
}
