/// The runtime behind a ``Store``: the root that owns the state, or a scope that reads through to
/// its parent. A `Store` is a thin, observable face on one of these.
@MainActor
@usableFromInline
package class Core<State, Action> {
  /// The current state, read through to the root.
  package var state: State {
    fatalError("Core is abstract: RootCore and ScopedCore override this.")
  }

  /// The root's runtime: effects, observers and streams.
  @usableFromInline
  package var runtime: StoreRuntime {
    fatalError("Core is abstract: RootCore and ScopedCore override this.")
  }

  /// Sends `action` to the root, joining `group` (the `StoreTask` of an effect that sent it).
  @usableFromInline
  package func send(_ action: Action, group: EffectGroup?) -> StoreTask {
    fatalError("Core is abstract: RootCore and ScopedCore override this.")
  }

  /// Replaces the state outside the reducer (time travel) and tells observers; false for a core
  /// that does not own its state (a scope).
  package func replaceState(_ state: State) -> Bool { false }

  /// Whether the state this core reads is present (false for a scope over nil optional state).
  var isPresent: Bool { true }

  /// A core for a child store of this one, reading its state through `toState` and sending its
  /// actions through `fromAction`.
  func scoped<ChildState, ChildAction>(
    toState: @escaping (State) -> ChildState,
    fromAction: @escaping (ChildAction) -> Action
  ) -> Core<ChildState, ChildAction> {
    ScopedCore(parent: self, toState: toState, fromAction: fromAction)
  }

  /// Registers a store of this core whose readers observe key paths, to be re-checked after each
  /// batch. (Row stores register with their row index instead.)
  func register(observedStore: any ObservedStore) {
    runtime.register(observedStore: observedStore)
  }

  nonisolated init() {}
}

/// What the store does with an effect's tasks and the actions they send.
struct EffectContext {
  var namespace: Namespace
  var keys: [CancellationKey]
  let sendGroup: EffectGroup
  var taskGroups: [EffectGroup]
}

/// Whether an effect's operation has returned; checked when it sends.
@MainActor
final class EffectLifetime {
  var isFinished = false
  nonisolated init() {}
}
