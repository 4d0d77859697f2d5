import ConcurrencyExtras

// How one kind of child instance is named and found in the state it lives in. Each operator that
// runs a child in a namespace of its own has one small conforming struct (ChildInstanceLocators
// .swift, beside this file); `ChildNamespaceComponent` holds it, and the check after each action
// (`ChildInstanceGroups.departed(in:)`) reads the operator's children through it once per group
// and finds each instance among them.

/// How the instances of one child operator are named, and found in the state the operator runs
/// on.
///
/// `path` and `id` name the instance: two namespaces are the same instance when both are equal
/// (and they run under the same `Scope`s). `children(of:)` reads what the operator's instances
/// live in (a collection, an optional, an enum state) from the operator's state, and
/// `locate(in:needsChildState:)` finds this instance there.
protocol ChildInstanceLocator<ParentState>: Sendable {
  /// The state the operator runs on.
  associatedtype ParentState
  /// What the operator's instances live in: its collection, its optional, its enum state.
  associatedtype Children

  /// The operator's path to its children (a state key path, or a case): the same for all the
  /// instances of one operator.
  var path: AnyHashableSendable { get }
  /// The child's identity: a row id, an `Identifiable` id, an enum case; nil for presence only.
  var id: AnyHashableSendable? { get }

  /// Reads the operator's children from its state.
  func children(of parent: ParentState) -> Children
  /// Finds this instance among `children`; the child's state is returned only when asked for
  /// (boxing it costs an allocation for a large state).
  func locate(in children: Children, needsChildState: Bool) -> ChildPresence
  /// For a collection operator: a snapshot of the ids of its children (see the comment at the
  /// top of ChildNamespaceComponent.swift). It is `previous` itself while the ids keep the storage
  /// `previous` holds (then nothing is allocated). Nil for an operator that has no such snapshot.
  func snapshot(of parent: ParentState, previous: ChildSnapshot?) -> ChildSnapshot?
}

extension ChildInstanceLocator {
  func snapshot(of parent: ParentState, previous: ChildSnapshot?) -> ChildSnapshot? { nil }

  /// Reads the operator's children from `state`, boxed once for all of its instances; nil when
  /// `state` is not of the operator's type.
  func children(in state: Any) -> AnyObject? {
    (state as? ParentState).map { ChildContainer(children(of: $0)) }
  }

  /// Finds this instance among `children`, which `children(in:)` read.
  func locate(_ children: AnyObject, needsChildState: Bool) -> ChildPresence {
    guard let children = children as? ChildContainer<Children> else { return .unknown }
    return locate(in: children.value, needsChildState: needsChildState)
  }

  /// The snapshot of the ids of the operator's children in `state`; nil when the operator has
  /// none or `state` is not of its type.
  func snapshot(in state: Any, previous: ChildSnapshot?) -> ChildSnapshot? {
    guard let parent = state as? ParentState else { return nil }
    return snapshot(of: parent, previous: previous)
  }
}

/// Whether a child instance is in the state it was looked up in.
enum ChildPresence {
  /// It is there, with its state when it was asked for (to look its own children up in).
  case present(Any)
  /// It has left the state.
  case absent
  /// The state is not of the type the instance lives in: the path is not known.
  case unknown
}

/// A snapshot of the ids of a collection operator's children: `identity` is the address of their
/// storage, which `ids` keeps alive (so that no other storage takes that address, and any write
/// to the ids in the state copies them to another address).
// NB: @unchecked Sendable is safe: its fields are `let`s, made and read only on the main actor,
// during one check of the root's state.
final class ChildSnapshot: @unchecked Sendable {
  let identity: UnsafeRawPointer?
  let ids: Any
  init(identity: UnsafeRawPointer?, ids: Any) {
    self.identity = identity
    self.ids = ids
  }
}

/// The children of an operator, boxed once per check for all of its instances.
// NB: @unchecked Sendable is safe: its value is a `let`, made and read only on the main actor,
// during one check of the root's state.
final class ChildContainer<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
