import ConcurrencyExtras

// A child's identity scopes its effects. Each child instance (an `ifLet` child, a `forEach` row,
// the case of an enum state scoped by `Scope(state:action:)` over a case path) runs its effects
// in a namespace component that says which instance it is (the operator's state path and the
// child's identity) and how to find that instance in the state:
//
// - the `id` of an `Identifiable` child state;
// - the case of an enum child state;
// - for any other optional child, its presence: the instance ends when the state is seen nil,
//   and the next non-nil value is a new instance.
//
// After each action that leaves effects running in child namespaces, the root looks the running
// instances up in its state, from the root down (`ChildInstanceGroups.departed(in:)`), and
// an instance that has left the state, by any reducer at any depth, has its effects cancelled,
// and the actions it queued with `.send` are dropped before they are reduced. While no child
// effect runs, the send loop pays one flag check for this. While some run, the check scales with
// what changed, not with the number of running instances: the instances are grouped by the
// operator they belong to (and the instance that operator runs in), each group reads its
// operator's children once, and a `forEach` group keeps a snapshot of its collection's ids. While
// that snapshot shares its storage with the ids in the state, the ids have not changed (any write
// to them copies the storage the snapshot holds), so the instances found present at the last
// check are still present and only the instances started since are looked up. An element action
// writes a row's state, never the ids, so it leaves the snapshot in place.
//
// The way down from the root is recorded as the effect travels up through the reducers: a
// `Scope` prepends its state path to the child components of its child's effects
// (`Effect.inScope`), and an `ifLet`, `forEach` or case scope wraps its child's effect in its own
// component. A reducer that scopes state by hand leaves a gap: the look-up then meets a state
// of another type, and treats the instance as present (its effects end as before: by id, by
// task, or with the store). An `ifLet` over a presentation closes most of that gap itself: it
// cancels a presentation it sees end while it reduces (`.cancelNamespace`, which a `Scope`
// rewrites as it does the instance's effects).

/// Whether a child instance is in the state it was looked up in.
enum ChildPresence {
  /// It is there, with its state when it was asked for (to look its own children up in).
  case present(Any)
  /// It has left the state.
  case absent
  /// The state is not of the type the instance lives in: the path is not known.
  case unknown
}

/// The namespace component of one child feature instance.
///
/// A class, so that the check after each action casts and compares references, not copies of
/// its fields.
// NB: @unchecked Sendable is safe: every stored property is a `let` of a Sendable value or a
// Sendable closure, except `pathObject`, a key path object that is immutable once built.
final class ChildNamespace: Hashable, @unchecked Sendable {
  /// The `Scope` state paths from the state of the enclosing instance (or the root) down to the
  /// state the operator runs on, outermost first.
  let scopes: [UncheckedSendable<AnyKeyPath>]
  /// The operator's path to its children (a state key path, or a case).
  let path: AnyHashableSendable
  /// The operator's key path object, when it has one: the same object for all the instances of
  /// one operator, which makes telling operators apart a comparison of references.
  let pathObject: AnyObject?
  /// The child's identity: a row id, an `Identifiable` id, an enum case; nil for presence only.
  let id: AnyHashableSendable?
  /// Reads the operator's children (its collection, its optional, its enum state) from the
  /// state it runs on; nil when that state is not of the operator's type.
  let children: @Sendable (_ state: Any) -> AnyObject?
  /// Finds this instance among `children`; the child's state is returned only when asked for
  /// (boxing it costs an allocation for a large state).
  let locate: @Sendable (_ children: AnyObject, _ needsChildState: Bool) -> ChildPresence
  /// For a collection operator: a snapshot of the ids of its children, read from the state it
  /// runs on (see the comment at the top of this file). It is `previous` itself while the ids
  /// keep the storage `previous` holds (then nothing is allocated), nil when that state is not of
  /// the operator's type. Nil for an operator that has no such snapshot.
  let snapshot: (@Sendable (_ state: Any, _ previous: ChildSnapshot?) -> ChildSnapshot?)?

  init(
    scopes: [UncheckedSendable<AnyKeyPath>] = [],
    path: AnyHashableSendable, pathObject: AnyObject?, id: AnyHashableSendable?,
    children: @escaping @Sendable (_ state: Any) -> AnyObject?,
    locate: @escaping @Sendable (_ children: AnyObject, _ needsChildState: Bool) -> ChildPresence,
    snapshot: (@Sendable (_ state: Any, _ previous: ChildSnapshot?) -> ChildSnapshot?)? = nil
  ) {
    self.scopes = scopes
    self.path = path
    self.pathObject = pathObject
    self.id = id
    self.children = children
    self.locate = locate
    self.snapshot = snapshot
  }

  /// This instance, run in the state at `keyPath` of a `Scope`.
  func inScope(_ keyPath: AnyKeyPath) -> ChildNamespace {
    ChildNamespace(
      scopes: [UncheckedSendable(keyPath)] + scopes, path: path, pathObject: pathObject, id: id,
      children: children, locate: locate, snapshot: snapshot)
  }

  /// What the instances of one operator share: how their children are read.
  var operatorKey: ChildOperatorKey { ChildOperatorKey(path: path, scopes: scopes) }

  /// Reads the operator's children from the state of the enclosing instance (or the root).
  func children(in state: Any) -> AnyObject? {
    var state = state
    for scope in scopes {
      guard let next = state[keyPath: scope.value] else { return nil }
      state = next
    }
    return children(state)
  }

  /// The snapshot of the ids of the operator's children in the state of the enclosing instance
  /// (or the root): `previous` while they are unchanged; nil when the operator has no snapshot
  /// or the state is not of its type.
  func snapshot(in state: Any, previous: ChildSnapshot?) -> ChildSnapshot? {
    guard let snapshot else { return nil }
    var state = state
    for scope in scopes {
      guard let next = state[keyPath: scope.value] else { return nil }
      state = next
    }
    return snapshot(state, previous)
  }

  /// Looks this instance up in the state of the enclosing instance (or the root).
  func presence(in state: Any, needsChildState: Bool) -> ChildPresence {
    guard let children = children(in: state) else { return .unknown }
    return locate(children, needsChildState)
  }

  static func == (lhs: ChildNamespace, rhs: ChildNamespace) -> Bool {
    lhs === rhs || (lhs.path == rhs.path && lhs.id == rhs.id && lhs.scopes == rhs.scopes)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(id)
    hasher.combine(scopes)
  }
}

extension ChildNamespace {
  /// Whether every child instance of `namespace` is still in `root`, the root's state.
  static func isPresent(_ namespace: Namespace, in root: Any) -> Bool {
    var state = root
    for (index, component) in namespace.enumerated() {
      guard let child = component.base as? ChildNamespace else { return true }
      switch child.presence(in: state, needsChildState: index < namespace.count - 1) {
      case .present(let childState): state = childState
      case .absent: return false
      case .unknown: return true
      }
    }
    return true
  }

  /// Looks the child instances of `namespace` up in `root`, the root's state, from the root
  /// down: the state of the last one when all are present.
  static func presence(of namespace: ArraySlice<AnyHashableSendable>, in root: Any)
    -> ChildPresence
  {
    var state = root
    for index in namespace.indices {
      guard let child = namespace[index].base as? ChildNamespace else { return .unknown }
      switch child.presence(in: state, needsChildState: true) {
      case .present(let childState): state = childState
      case .absent: return .absent
      case .unknown: return .unknown
      }
    }
    return .present(state)
  }
}

/// The operator of a child instance: its `Scope` state paths and its path to its children.
struct ChildOperatorKey: Hashable {
  let path: AnyHashableSendable
  let scopes: [UncheckedSendable<AnyKeyPath>]
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

/// Marks a queued action of a child instance that has left the state: it is dropped.
struct DepartedChild: Hashable, Sendable {}

/// The identity of a child state beyond its place: its enum case and its `Identifiable` id (an
/// enum's own, else its payload's).
struct ChildIdentity: Hashable, Sendable {
  let tag: UInt32?
  let id: UncheckedSendable<AnyHashable>?

  /// The identity of `state`, or nil when it has none (neither an enum nor `Identifiable`).
  static func of<State>(_ state: State) -> AnyHashableSendable? {
    identity(of: state).map { AnyHashableSendable($0) }
  }

  /// The identity of `state`, or nil when it has none.
  static func identity<State>(of state: State) -> Self? {
    let tag = EnumTag.of(state)
    let id = identifiableID(of: state) ?? (tag == nil ? nil : payloadID(of: state))
    guard tag != nil || id != nil else { return nil }
    return Self(tag: tag, id: id.map { UncheckedSendable($0) })
  }

  /// Whether `new`, put in place of `old`, is the same child: both have an `Identifiable` id
  /// (their own, or an enum's payload's in the same case), and it is the same.
  static func isSame<State>(_ old: State, _ new: State) -> Bool {
    guard let old = identity(of: old), old.id != nil else { return false }
    return identity(of: new) == old
  }

  /// The `id` of the payload of the enum `value`, when the payload is `Identifiable`.
  // NB: reflects the enum only: the caller has checked that it is one. A struct child is
  // answered by its conformance alone.
  static func payloadID(of value: Any) -> AnyHashable? {
    guard let payload = Mirror(reflecting: value).children.first?.value else { return nil }
    return identifiableID(of: payload)
  }

  /// The `id` of `value` when it is `Identifiable`.
  static func identifiableID(of value: Any) -> AnyHashable? {
    guard let identifiable = value as? any Identifiable else { return nil }
    func open<Value: Identifiable>(_ value: Value) -> AnyHashable { AnyHashable(value.id) }
    return open(identifiable)
  }
}

extension Effect {
  /// Records, in the child namespaces of this effect, that the child runs in the state at
  /// `keyPath` of the `Scope` that returns it (see the comment at the top of this file).
  @usableFromInline
  func inScope(_ keyPath: AnyKeyPath) -> Self {
    switch operation {
    case .none, .send, .run, .subscribe, .cancel:
      return self
    case .cancelNamespace(let component):
      // NB: an operator's cancellation of one of its instances names the instance as its
      // effects do, so it is scoped the same way.
      guard let child = component.base as? ChildNamespace else { return self }
      return Self(operation: .cancelNamespace(AnyHashableSendable(child.inScope(keyPath))))
    case .namespaced(let component, let effect):
      guard let child = component.base as? ChildNamespace else { return self }
      return Self(operation: .namespaced(AnyHashableSendable(child.inScope(keyPath)), effect))
    case .dependencies(let dependencies, let effect):
      return Self(operation: .dependencies(dependencies, effect.inScope(keyPath)))
    case .merge(let effects):
      return Self(operation: .merge(effects.map { $0.inScope(keyPath) }))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map { $0.inScope(keyPath) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        operation: .cancellable(id: id, cancelInFlight: cancelInFlight, effect.inScope(keyPath)))
    case .throttle(let id, let interval, let sleep, let latest, let effect):
      return Self(
        operation: .throttle(
          id: id, interval: interval, sleep: sleep, latest: latest, effect.inScope(keyPath)))
    }
  }
}
