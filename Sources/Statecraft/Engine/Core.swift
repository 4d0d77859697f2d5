// Owns what every store's runtime does, whatever it is: the `Core` protocol that a `Store` holds,
// with its conformers, RootCore.swift (owns the state, runs the send loop), ScopedCore.swift
// (reads through to a parent, forwards to it) and Navigation/NavigationChildCore.swift (a
// presented child or a stack element, which drops what it is sent once gone); and the context an
// effect runs in.
import Dependencies

/// The runtime behind a ``Store``: the root that owns the state, or a scope that reads through to
/// its parent. A `Store` is a thin, observable face on one of these.
///
/// NB: a protocol rather than a class hierarchy: a call through `any Core` costs what a call
/// through a class's vtable did (measured on plain and nested sends, see the Engine article),
/// and no member is an abstract stub.
@MainActor
@usableFromInline
package protocol Core<State, Action>: AnyObject, Sendable {
  associatedtype State
  associatedtype Action

  /// The current state, read through to the root.
  var state: State { get }

  /// The root's runtime: effects, observers and streams.
  var runtime: StoreRuntime { get }

  /// The root of this core's tree, which owns the state: the core itself for a root. What needs
  /// the root (time travel, recording, the Inspector) asks it here, whatever store of the tree
  /// it was given.
  var root: any AnyRootCore { get }

  /// The state a store of this core reads while the root's state is unchanged (see
  /// ScopedStateCache.swift): a scoped core's; nil for the others. A requirement rather than a
  /// cast, which costs a store's making a dynamic cast to a parameterized existential.
  var stateCache: ScopedStateCache<State>? { get }

  /// Sends `action` to the root, joining `group` (the `StoreTask` of an effect that sent it);
  /// `cause` is the root action whose effect sent it, when a step observer wants it (see
  /// `EffectContext.cause`).
  func send(_ action: Action, group: EffectGroup?, cause: Any?) -> StoreTask

  /// Replaces the state outside the reducer (time travel) and tells observers; false for a core
  /// that does not own its state (a scope).
  func replaceState(_ state: State) -> Bool

  /// A core for a child store of this one, reading its state through `toState` and sending its
  /// actions through `fromAction`.
  func scoped<ChildState, ChildAction>(
    toState: @escaping (State) -> ChildState,
    fromAction: @escaping (ChildAction) -> Action
  ) -> any Core<ChildState, ChildAction>

  /// Registers a store of this core whose readers observe key paths, to be re-checked after each
  /// batch. (Row stores register with their row index instead.)
  func register(observedStore: any ObservedStore)
}

extension Core {
  /// Sends `action` to the root, joining `group`, with no cause (an idiom's own event, a test
  /// store's action).
  @usableFromInline
  package func send(_ action: Action, group: EffectGroup?) -> StoreTask {
    send(action, group: group, cause: nil)
  }
}

extension Core {
  /// Whether this core is its tree's root (it owns the state), not a scope of one.
  var isRoot: Bool { root === self }
}

/// The root core of a store tree, whatever its state and action types: what debugging tools
/// read, replace and recompute the root's state through (see Debugging/Inspection.swift).
@MainActor
@usableFromInline
package protocol AnyRootCore: AnyObject {
  /// The root's state.
  var anyState: Any { get }
  /// Replaces the root's state outside the reducer (time travel); false when `state` is not of
  /// the root's state type.
  func replaceAnyState(_ state: Any) -> Bool
  /// The root's state after its reducer runs `action` on `state`, without starting the effect it
  /// returns; nil when the types differ or the root has no reducer to run.
  func reduceAnyState(_ state: Any, action: Any) -> Any?
}

/// What the store does with an effect's tasks and the actions they send.
struct EffectContext {
  var namespace: Namespace
  var keys: [CancellationKey]
  let sendGroup: EffectGroup
  var taskGroups: [EffectGroup]
  /// The dependency values the effect runs with: the root's, captured when the store was
  /// created, or those of the `.dependency(...)` reducer that returned it (see
  /// Dependencies/DependencyReducer.swift).
  var dependencies: DependencyValues
  /// The root action whose reduction returned the effect, while a step observer is registered
  /// (see StepObservers.swift); nil otherwise, so that no action is boxed for nothing.
  var cause: Any? = nil
}

/// Whether an effect's operation has returned; checked when it sends.
@MainActor
final class EffectLifetime {
  var isFinished = false
  nonisolated init() {}
}
