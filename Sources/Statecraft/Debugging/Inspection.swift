// Owns what debugging tools outside the core (the Inspector) reach a store tree through: its
// runtime, whose step observers tell each action the root reduces (StepObservers.swift), and the
// root's state, read and replaced whatever store of the tree they were given and whatever its
// idiom (a reactor's and a feedback system's store are scopes of a root over their events).

extension Store {
  /// The runtime of this store's tree, shared by the root and every scope of it.
  package var inspectedRuntime: StoreRuntime { core.runtime }

  /// The state of this store tree's root.
  package var inspectedRootState: Any {
    (core as? any RootStateAccess)?.anyRootState ?? core.state
  }

  /// Replaces the state of this store tree's root outside the reducer (time travel), as
  /// `jump(toStep:in:reducer:)` does; false when `state` is not of the root's state type.
  package func replaceInspectedRootState(_ state: Any) -> Bool {
    (core as? any RootStateAccess)?.replaceAnyRootState(state) ?? false
  }
}

/// A core that reaches its tree's root state.
@MainActor
protocol RootStateAccess: AnyObject {
  var anyRootState: Any { get }
  func replaceAnyRootState(_ state: Any) -> Bool
}

extension RootCore: RootStateAccess {
  var anyRootState: Any { state }

  func replaceAnyRootState(_ state: Any) -> Bool {
    guard let state = state as? State else { return false }
    return replaceState(state)
  }
}

extension ScopedCore: RootStateAccess {
  var anyRootState: Any {
    (parent as? any RootStateAccess)?.anyRootState ?? parent.state
  }

  func replaceAnyRootState(_ state: Any) -> Bool {
    (parent as? any RootStateAccess)?.replaceAnyRootState(state) ?? false
  }
}
