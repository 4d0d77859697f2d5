/// The id of an element of a ``StackState``: given when the element is pushed, never reused.
///
/// Ids come from one counter for the process, so a newer element always has a greater id and
/// no two elements of any stack share one: an action for a popped element can never reach an
/// element pushed after it, even on a stack rebuilt from scratch.
public struct StackElementID: Hashable, Comparable, Sendable, CustomStringConvertible {
  let rawValue: UInt64

  /// A fresh id, greater than every id given before it: for a view that pushes an element
  /// with `.push(id:state:)`.
  public init() { rawValue = NavigationIDCounter.next() }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }
}
