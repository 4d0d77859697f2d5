import ConcurrencyExtras

// A child's identity scopes its effects. Each child instance (an `ifLet` child, a `forEach` row,
// the case of an enum state scoped by `Scope(state:action:)` over a case path, a presented
// destination, a stack element) runs its effects in a namespace component that says which
// instance it is (the operator's state path and the child's identity) and how to find that
// instance in the state: its operator's locator (ChildInstanceLocator.swift, one struct per kind
// of operator in ChildInstanceLocators.swift). The identity is
//
// - the `id` of an `Identifiable` child state, or a row's id in its collection;
// - the case of an enum child state;
// - a presentation's id, or a stack element's id, never reused;
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

/// The namespace component of one child feature instance: its locator (how its operator names
/// it and finds it in its state, see ChildInstanceLocator.swift) and the `Scope` state paths
/// above that operator.
///
/// A class, so that the check after each action casts and compares references, not copies of
/// its fields.
final class ChildNamespaceComponent: Hashable, Sendable {
  /// The `Scope` state paths from the state of the enclosing instance (or the root) down to the
  /// state the operator runs on, outermost first.
  let scopes: [UncheckedSendable<AnyKeyPath>]
  /// The operator's path to its children (`locator.path`, read once).
  let path: AnyHashableSendable
  /// The child's identity (`locator.id`, read once).
  let id: AnyHashableSendable?
  /// How the operator names this instance and finds it in its state.
  let locator: any ChildInstanceLocator

  /// The instance that `locator` names, in the state its operator runs on.
  init(_ locator: some ChildInstanceLocator) {
    self.scopes = []
    self.path = locator.path
    self.id = locator.id
    self.locator = locator
  }

  private init(
    scopes: [UncheckedSendable<AnyKeyPath>], path: AnyHashableSendable, id: AnyHashableSendable?,
    locator: any ChildInstanceLocator
  ) {
    self.scopes = scopes
    self.path = path
    self.id = id
    self.locator = locator
  }

  /// This instance, run in the state at `keyPath` of a `Scope`.
  func inScope(_ keyPath: AnyKeyPath) -> ChildNamespaceComponent {
    ChildNamespaceComponent(
      scopes: [UncheckedSendable(keyPath)] + scopes, path: path, id: id, locator: locator)
  }

  /// What the instances of one operator share: how their children are read.
  var operatorKey: ChildOperatorKey { ChildOperatorKey(path: path, scopes: scopes) }

  /// Reads the operator's children from the state of the enclosing instance (or the root).
  func children(in state: Any) -> AnyObject? {
    guard let state = operatorState(in: state) else { return nil }
    return locator.children(in: state)
  }

  /// Finds this instance among `children`, which `children(in:)` read.
  func locate(_ children: AnyObject, needsChildState: Bool) -> ChildPresence {
    locator.locate(children, needsChildState: needsChildState)
  }

  /// The state the operator runs on, read through the `Scope`s from the state of the enclosing
  /// instance (or the root).
  private func operatorState(in state: Any) -> Any? {
    var state = state
    for scope in scopes {
      guard let next = state[keyPath: scope.value] else { return nil }
      state = next
    }
    return state
  }

  /// The snapshot of the ids of the operator's children in the state of the enclosing instance
  /// (or the root): `previous` while they are unchanged; nil when the operator has no snapshot
  /// or the state is not of its type.
  func snapshot(in state: Any, previous: ChildSnapshot?) -> ChildSnapshot? {
    guard let state = operatorState(in: state) else { return nil }
    return locator.snapshot(in: state, previous: previous)
  }

  /// Looks this instance up in the state of the enclosing instance (or the root).
  func presence(in state: Any, needsChildState: Bool) -> ChildPresence {
    guard let children = children(in: state) else { return .unknown }
    return locate(children, needsChildState: needsChildState)
  }

  static func == (lhs: ChildNamespaceComponent, rhs: ChildNamespaceComponent) -> Bool {
    lhs === rhs || (lhs.path == rhs.path && lhs.id == rhs.id && lhs.scopes == rhs.scopes)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(id)
    hasher.combine(scopes)
  }
}

extension ChildNamespaceComponent {
  /// Whether every child instance of `namespace` is still in `root`, the root's state.
  static func isPresent(_ namespace: Namespace, in root: Any) -> Bool {
    var state = root
    for (index, component) in namespace.enumerated() {
      guard let child = component.base as? ChildNamespaceComponent else { return true }
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
      guard let child = namespace[index].base as? ChildNamespaceComponent else { return .unknown }
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
      guard let child = component.base as? ChildNamespaceComponent else { return self }
      return Self(operation: .cancelNamespace(AnyHashableSendable(child.inScope(keyPath))))
    case .namespaced(let component, let effect):
      guard let child = component.base as? ChildNamespaceComponent else { return self }
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
