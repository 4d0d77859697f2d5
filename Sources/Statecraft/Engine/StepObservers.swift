// Owns the hook that debugging tools (a store-level recorder, the Inspector) use to see every
// action a store tree's root reduces, where it came from, and the state it left. The send loop
// (RootCore.swift) tells these observers after each action only while one is registered.

/// Where an action that a store reduced came from.
///
/// A test store's words: a `.send` action is one the test sends, an `.effect` action one it
/// receives.
public enum ActionOrigin: String, Codable, Sendable, Hashable {
  /// Sent to the store from outside: a view, a command, a test's `send`.
  case send
  /// Sent by an effect the store runs (a `.send`, a `.run`, a publisher).
  case effect
}

/// One action the root of a store tree reduced: the action as the root sees it, where it came
/// from, and the root's state after it.
@MainActor
package struct ReducedStep {
  /// The root's action (for a reactor, a `ReactorEvent`; for a feedback system, a
  /// `FeedbackLoopEvent`).
  package let action: Any
  /// Where the root's action came from, as a test store of the whole tree sees it.
  package let origin: ActionOrigin
  /// For an action an effect sent, the root action whose reduction returned that effect; nil
  /// for a sent action, or when the effect started while no step observer was registered.
  package let cause: Any?
  /// The root's state after the action.
  package let state: Any

  /// Where the action came from as one feature of the tree sees it: the feature whose actions
  /// `extract` finds in the root's (`.list(.edit(...))` for a list feature).
  ///
  /// A test store of that feature receives what the feature's own effects send, and sends
  /// everything else. So an action an effect sent is the feature's `.effect` when the action
  /// that returned the effect was the feature's too; when a parent's action returned it (a
  /// detail screen's delegate action that the parent turns into a change of the list, a
  /// confirmation's button), it is sent to the feature, as a `.send`.
  ///
  /// NB: the root returns one effect for an action, merged from every reducer that handled it: an
  /// effect that a parent returns for one of the feature's own actions counts as the feature's.
  /// When the cause is unknown (the effect started before the observer was registered), the
  /// root's origin is kept.
  package func origin(forFeature extract: (Any) -> Any?) -> ActionOrigin {
    guard origin == .effect, let cause else { return origin }
    return extract(cause) == nil ? .send : .effect
  }
}

/// The observers of the actions a store tree's root reduces.
@MainActor
package final class StepObservers {
  private var observers: [(id: UInt64, body: @MainActor (ReducedStep) -> Void)] = []
  private var willReduceObservers: [(id: UInt64, body: @MainActor () -> Void)] = []
  private var nextID: UInt64 = 0

  /// Whether any observer is registered: the send loop checks this after each action.
  private(set) var isEmpty = true
  /// How many times the root's state was replaced outside the reducer (time travel).
  package private(set) var stateReplacementCount: UInt64 = 0

  func stateReplaced() { stateReplacementCount &+= 1 }

  package func add(_ body: @escaping @MainActor (ReducedStep) -> Void) -> UInt64 {
    nextID += 1
    observers.append((nextID, body))
    isEmpty = false
    return nextID
  }

  package func add(willReduce body: @escaping @MainActor () -> Void) -> UInt64 {
    nextID += 1
    willReduceObservers.append((nextID, body))
    isEmpty = false
    return nextID
  }

  package func remove(_ id: UInt64) {
    observers.removeAll { $0.id == id }
    willReduceObservers.removeAll { $0.id == id }
    isEmpty = observers.isEmpty && willReduceObservers.isEmpty
  }

  func tell(_ step: ReducedStep) {
    for observer in observers { observer.body(step) }
  }

  func tellWillReduce() {
    for observer in willReduceObservers { observer.body() }
  }
}
