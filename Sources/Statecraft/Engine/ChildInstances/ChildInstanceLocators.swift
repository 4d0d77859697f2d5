import CasePathsCore
import ConcurrencyExtras
import IdentifiedCollections

// The five kinds of child instance, one locator each: how each operator names its instances and
// finds them in its state. The operators build one when a child's effect is not `.none` (see
// `Effect.namespaced`); a `.none` effect builds nothing.
//
// NB: the names (`path`, `id`) are built exactly as the namespaces' hashing and equality have
// always seen them: the operator's key path in an `UncheckedSendable` (so that two operators on
// one key path with different child types differ), or, for a case scope, the state type and case.

/// An element of `forEach`: its id in the identified collection.
struct ForEachElementLocator<ParentState, ID: Hashable & Sendable, ElementState>:
  ChildInstanceLocator
{
  let toElements: UncheckedSendable<WritableKeyPath<ParentState, IdentifiedArray<ID, ElementState>>>
  let elementID: ID

  var path: AnyHashableSendable { AnyHashableSendable(toElements) }
  var id: AnyHashableSendable? { AnyHashableSendable(elementID) }

  func children(of parent: ParentState) -> IdentifiedArray<ID, ElementState> {
    parent[keyPath: toElements.value]
  }

  func locate(in rows: IdentifiedArray<ID, ElementState>, needsChildState: Bool) -> ChildPresence {
    guard let element = rows[id: elementID] else { return .absent }
    return .present(needsChildState ? element : ())
  }

  func snapshot(of parent: ParentState, previous: ChildSnapshot?) -> ChildSnapshot? {
    // NB: `ids` shares the storage of the collection's keys, which an element write leaves alone
    // (see ChildNamespaceComponent.swift).
    let ids = parent[keyPath: toElements.value].ids
    let identity = ids.elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    if let previous, previous.identity == identity { return previous }
    return ChildSnapshot(identity: identity, ids: ids)
  }
}

/// The child of `ifLet`: its identity (enum case, `Identifiable` id) when it has one, else its
/// presence (the instance ends when the state is seen nil).
struct IfLetChildLocator<ParentState, ChildState>: ChildInstanceLocator {
  let toChildState: UncheckedSendable<WritableKeyPath<ParentState, ChildState?>>
  /// The child's identity, read after the child reduced.
  let identity: AnyHashableSendable?

  var path: AnyHashableSendable { AnyHashableSendable(toChildState) }
  var id: AnyHashableSendable? { identity }

  func children(of parent: ParentState) -> ChildState? { parent[keyPath: toChildState.value] }

  func locate(in optional: ChildState?, needsChildState: Bool) -> ChildPresence {
    guard let child = optional, ChildIdentity.of(child) == identity else { return .absent }
    return .present(needsChildState ? child : ())
  }
}

/// The case of an enum state scoped by `Scope(state:action:)` over a case path: the case, and
/// the payload's `Identifiable` id.
struct CaseScopeLocator<ParentState, ChildState>: ChildInstanceLocator {
  let toChildState: UncheckedSendable<AnyCasePath<ParentState, ChildState>>
  let tag: UInt32?
  let payloadID: UncheckedSendable<AnyHashable>?

  var path: AnyHashableSendable {
    AnyHashableSendable(CaseScopePath(state: ObjectIdentifier(ParentState.self), tag: tag))
  }
  var id: AnyHashableSendable? { payloadID.map { AnyHashableSendable($0) } }

  func children(of parent: ParentState) -> ParentState { parent }

  func locate(in parent: ParentState, needsChildState: Bool) -> ChildPresence {
    guard EnumTag.of(parent) == tag, let child = toChildState.value.extract(from: parent),
      ChildIdentity.identifiableID(of: child) == payloadID?.value
    else { return .absent }
    return .present(needsChildState ? child : ())
  }
}

/// The namespace path of a `Scope` over an enum case: the state type and the case.
struct CaseScopePath: Hashable, Sendable {
  let state: ObjectIdentifier
  let tag: UInt32?
}

/// A presented child of `ifLet` over a `PresentationState`: its presentation, and its own case or
/// `id`.
struct PresentationLocator<ParentState, ChildState>: ChildInstanceLocator {
  let toPresentation: UncheckedSendable<WritableKeyPath<ParentState, PresentationState<ChildState>>>
  let identity: PresentedIdentity

  var path: AnyHashableSendable { AnyHashableSendable(toPresentation) }
  var id: AnyHashableSendable? { AnyHashableSendable(identity) }

  func children(of parent: ParentState) -> PresentationState<ChildState> {
    parent[keyPath: toPresentation.value]
  }

  func locate(in presentation: PresentationState<ChildState>, needsChildState: Bool)
    -> ChildPresence
  {
    guard presentation.id == identity.presentation, let child = presentation.value,
      ChildIdentity.of(child) == identity.child
    else { return .absent }
    return .present(needsChildState ? child : ())
  }
}

/// The identity of a presented child instance: its presentation, and its own case or id.
struct PresentedIdentity: Hashable, Sendable {
  let presentation: PresentationID
  let child: AnyHashableSendable?
}

/// An element of `forEach` over a `StackState`: its stack element id, never reused.
struct StackElementLocator<ParentState, ElementState>: ChildInstanceLocator {
  let toStack: UncheckedSendable<WritableKeyPath<ParentState, StackState<ElementState>>>
  let elementID: StackElementID

  var path: AnyHashableSendable { AnyHashableSendable(toStack) }
  var id: AnyHashableSendable? { AnyHashableSendable(elementID) }

  func children(of parent: ParentState) -> StackState<ElementState> {
    parent[keyPath: toStack.value]
  }

  func locate(in stack: StackState<ElementState>, needsChildState: Bool) -> ChildPresence {
    guard let element = stack.elements[elementID] else { return .absent }
    return .present(needsChildState ? element : ())
  }
}
