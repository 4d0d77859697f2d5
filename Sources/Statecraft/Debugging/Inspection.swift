// Owns what debugging tools outside the core (the Inspector) reach a store tree through: its
// runtime, whose step observers tell each action the root reduces (StepObservers.swift), and the
// root's state, read and replaced whatever store of the tree they were given and whatever its
// idiom (a reactor's and a feedback system's store are scopes of a root over their events).

extension Store {
  /// The state of this store tree's root.
  package var inspectedRootState: Any { core.root.anyState }

  /// Replaces the state of this store tree's root outside the reducer (time travel), as
  /// `jump(toStep:in:reducer:)` does; false when `state` is not of the root's state type.
  package func replaceInspectedRootState(_ state: Any) -> Bool {
    core.root.replaceAnyState(state)
  }

  /// The root's state after the root's reducer runs `action` on `state`, without starting the
  /// effect it returns (a debugging tool recomputing a past step); nil when the state or the
  /// action is not of the root's types, or the root has no reducer to run.
  ///
  /// Run it inside `SharedReplay.isolating(_:)`, so that the reducer's writes to shared values
  /// go to the replay's copies, not to the live values (and their files).
  package func reduceInspectedRootState(_ state: Any, action: Any) -> Any? {
    core.root.reduceAnyState(state, action: action)
  }
}

extension RootCore {
  @usableFromInline
  package var anyState: Any { state }

  @usableFromInline
  package func replaceAnyState(_ state: Any) -> Bool {
    guard let state = state as? State else { return false }
    return replaceState(state)
  }

  @usableFromInline
  package func reduceAnyState(_ state: Any, action: Any) -> Any? {
    guard var state = state as? State, let action = action as? Action,
      let reduceWithoutEffects
    else { return nil }
    reduceWithoutEffects(&state, action)
    return state
  }
}
