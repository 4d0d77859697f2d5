// Owns the child instances that a store tree's effects run in (the namespaces whose components are
// all child instances), grouped by the instance they run in and their operator, and the check,
// after an action, of which of them have left the root's state. How an instance is named and
// found in the state is its operator's locator's (ChildInstanceLocator.swift, held by
// ChildNamespaceComponent.swift), beside it. The effect registry tells it when an instance's first effect
// starts and its last one ends, and cancels the instances it finds gone.

/// The child instances with running effects, grouped by the instance they run in and their
/// operator.
@MainActor
final class ChildInstanceGroups {
  // NB: `@exclusivity(unchecked)`: main-actor only. `departed(in:)` iterates a copy of the table
  // (the groups are classes, mutated in place) and only returns what departed: the registry
  // cancels it afterwards, so the `ended(_:)` a cancellation calls never meets a held access.
  @exclusivity(unchecked) private var groups: [ChildGroupKey: ChildGroup] = [:]

  /// How many child instances the checks have looked up (for tests of what a check costs).
  private(set) var lookups = 0

  nonisolated init() {}

  /// Whether no effect runs inside a child feature instance. While one does, the root checks
  /// after each action that the instances are still in its state.
  var isEmpty: Bool { groups.isEmpty }

  /// The first effect of the instance `namespace` started.
  func started(_ namespace: Namespace) {
    guard let child = namespace.last?.base as? ChildNamespaceComponent else { return }
    let key = ChildGroupKey(parent: namespace.dropLast(), operator: child.operatorKey)
    if let group = groups[key] {
      group.unchecked.insert(namespace)
    } else {
      let group = ChildGroup(child)
      group.unchecked.insert(namespace)
      groups[key] = group
    }
  }

  /// The last effect of the instance `namespace` ended, or its effects were cancelled.
  func ended(_ namespace: Namespace) {
    guard let child = namespace.last?.base as? ChildNamespaceComponent,
      namespace.allSatisfy({ $0.base is ChildNamespaceComponent })
    else { return }
    let key = ChildGroupKey(parent: namespace.dropLast(), operator: child.operatorKey)
    guard let group = groups[key] else { return }
    group.present.remove(namespace)
    group.unchecked.remove(namespace)
    if group.present.isEmpty && group.unchecked.isEmpty { groups[key] = nil }
  }

  /// The child instances that have left the root's state, which `state` reads.
  ///
  /// Each group reads its operator's children once. A group whose snapshot of its children's ids
  /// shows them unchanged since the last check looks up only the instances started since then
  /// (see ChildNamespaceComponent.swift): a send to one row of a thousand rows that each run an effect
  /// costs what that row started, not a look-up per row.
  func departed(in state: () -> Any) -> [Namespace] {
    guard !groups.isEmpty else { return [] }
    let root = state()
    var departed: [Namespace] = []
    for (key, group) in groups {
      let enclosing: Any
      if key.parent.isEmpty {
        enclosing = root
      } else {
        switch ChildNamespaceComponent.presence(of: key.parent[...], in: root) {
        case .present(let state): enclosing = state
        case .absent:
          departed.append(contentsOf: group.present)
          departed.append(contentsOf: group.unchecked)
          continue
        case .unknown: continue
        }
      }
      let snapshot = group.child.snapshot(in: enclosing, previous: group.snapshot)
      // NB: while the ids are those of the last check, only the instances started since are
      // looked up.
      let isUnchanged = snapshot != nil && snapshot === group.snapshot
      if isUnchanged && group.unchecked.isEmpty { continue }
      // NB: the state is not of the operator's type: the instances' path is not known, and they
      // are treated as present (see the comment at the top of ChildNamespaceComponent.swift).
      guard let children = group.child.children(in: enclosing) else {
        group.snapshot = nil
        continue
      }
      group.snapshot = snapshot
      if !isUnchanged {
        // NB: a departed instance leaves `present` when its effects are cancelled.
        lookups += group.present.count
        for namespace in group.present where group.child(namespace, isAbsentFrom: children) {
          departed.append(namespace)
        }
      }
      lookups += group.unchecked.count
      for namespace in group.unchecked {
        if group.child(namespace, isAbsentFrom: children) {
          departed.append(namespace)
        } else {
          group.present.insert(namespace)
        }
      }
      group.unchecked.removeAll(keepingCapacity: true)
    }
    return departed
  }
}

/// The child instances of one operator in one enclosing instance (or the root).
struct ChildGroupKey: Hashable {
  let parent: ArraySlice<AnyHashableSendable>
  let `operator`: ChildOperatorKey
}

/// The child instances of one operator in one enclosing instance, with running effects.
final class ChildGroup {
  /// An instance of the operator, to read its children with.
  let child: ChildNamespaceComponent
  /// The instances found present at the last check, while `snapshot` holds.
  var present: Set<Namespace> = []
  /// The instances to look up at the next check.
  var unchecked: Set<Namespace> = []
  /// The snapshot of the operator's children at the last check.
  var snapshot: ChildSnapshot?

  init(_ child: ChildNamespaceComponent) { self.child = child }

  /// Whether the instance `namespace` of this group has left `children`, its operator's children.
  func child(_ namespace: Namespace, isAbsentFrom children: AnyObject) -> Bool {
    guard let child = namespace.last?.base as? ChildNamespaceComponent,
      case .absent = child.locate(children, needsChildState: false)
    else { return false }
    return true
  }
}
