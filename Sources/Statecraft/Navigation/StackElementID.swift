import ConcurrencyExtras
import Dependencies
import IssueReporting

/// The id of an element of a ``StackState``: given when the element is pushed, never reused.
///
/// In an app, ids come from one counter for the process, so a newer element always has a
/// greater id and no two elements of any stack share one: an action for a popped element can
/// never reach an element pushed after it, even on a stack rebuilt from scratch.
///
/// In a test, ids come from a counter of the test's own that starts at 0, so a test names the
/// elements its stores push by number, as in TCA:
///
/// ```swift
/// await store.send(.detailTapped) { $0.path[id: 0] = .detail(Detail.State()) }
/// await store.send(.path(.element(id: 0, action: .saveTapped)))
/// await store.receive(\.path.popFrom, 0) { $0.path[id: 0] = nil }
/// ```
///
/// An assertion closure that appends to a stack takes no id from that counter: the next element
/// the store pushes gets the id it would have had.
public struct StackElementID: Hashable, Comparable, Sendable, CustomStringConvertible {
  let rawValue: Int64

  init(rawValue: Int64) { self.rawValue = rawValue }

  /// Less than every id given: the last id of a counter that gave none.
  static let beforeFirst = StackElementID(rawValue: -1)

  /// A fresh id, greater than every id given before it: for a view that pushes an element
  /// with `.push(id:state:)`.
  public init() { self = DependencyValues._current.stackElementID.next() }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }
}

extension StackElementID: ExpressibleByIntegerLiteral {
  /// The id a test's counter gives the `value`th element pushed in the test (from 0): for
  /// assertions, `$0.path[id: 0]` and `.path(.element(id: 1, action: …))`.
  ///
  /// Outside a test, where ids come from the process's counter, an id written as a number names
  /// no element; it is reported.
  public init(integerLiteral value: Int64) {
    if !isTesting {
      reportIssue(
        """
        A stack element id was written as the number \(value) outside a test.

        Numbered ids are a test's: there, ids count from 0. In an app, use the id a stack gave \
        its element ('state.path.ids'), or 'StackElementID()' for a view's push.
        """)
    }
    self.init(rawValue: value)
  }
}

/// Where the ids of pushed stack elements come from: `@Dependency(\.stackElementID)`.
package struct StackElementIDGenerator: Sendable {
  private let counter: LockIsolated<Int64>?

  /// The process's counter, shared with presentations: an app's.
  package static let process = StackElementIDGenerator(counter: nil)

  /// A counter of its own whose first id is `first`: a test's.
  package static func counting(from first: Int64 = 0) -> StackElementIDGenerator {
    StackElementIDGenerator(counter: LockIsolated(first))
  }

  /// The next id.
  package func next() -> StackElementID {
    guard let counter else {
      return StackElementID(rawValue: Int64(NavigationIDCounter.next()))
    }
    return counter.withValue { next in
      defer { next += 1 }
      return StackElementID(rawValue: next)
    }
  }

  /// Makes sure no id up to `id` is given from now on: an element was pushed with an id a view
  /// or a test chose.
  package func skip(through id: StackElementID) {
    guard let counter else { return }
    counter.withValue { $0 = Swift.max($0, id.rawValue + 1) }
  }

  /// The last id given (``StackElementID/beforeFirst`` before the first): a stack made now
  /// takes no id given before it.
  package var lastGiven: StackElementID {
    guard let counter else { return StackElementID(rawValue: Int64(NavigationIDCounter.last)) }
    return StackElementID(rawValue: counter.value - 1)
  }

  /// A counter that gives the ids this one would give next, without taking them from it: for
  /// a test store's assertion closures.
  package func copy() -> StackElementIDGenerator {
    guard let counter else { return self }
    return StackElementIDGenerator(counter: LockIsolated(counter.value))
  }
}

private enum StackElementIDGeneratorKey: DependencyKey {
  static var liveValue: StackElementIDGenerator { .process }
  static var testValue: StackElementIDGenerator { .counting() }
  static var previewValue: StackElementIDGenerator { .process }
}

extension DependencyValues {
  /// Where the ids of pushed stack elements come from.
  package var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGeneratorKey.self] }
    set { self[StackElementIDGeneratorKey.self] = newValue }
  }
}

/// Whether a test store's assertion closure is running: a write to a stack at an id it doesn't
/// hold then adds the element (the test names an element the store pushed), where elsewhere it
/// is reported.
package enum TestAssertion {
  @TaskLocal package static var isRunning = false
}
