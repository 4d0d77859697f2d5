import CasePathsCore
import Foundation
import Observation

/// The runtime of a feature: it holds the state, runs the reducer for each action, carries out
/// the effects, and tells observers what changed.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// }
/// store.send(.increment)
/// print(store.count)  // 1
/// ```
///
/// - **Sending** is synchronous: ``send(_:)`` reduces the action before it returns. An action sent
///   while the store is reducing (from a `.send` effect, an observer, a subscriber) is queued and
///   reduced, in FIFO order, before the outermost `send` returns. The returned ``StoreTask``
///   finishes when the action's effects, and what they sent, are done.
/// - **Observation** is fine-grained without macros: reading `store.count` (dynamic member lookup)
///   registers interest in `\.count` only. After each batch of actions the store notifies the
///   observers of the key paths whose values changed (`==` where the value is `Equatable`; a value
///   that isn't `Equatable` counts as changed at every batch). Computed properties of `State` work
///   the same way. ``state`` is the coarse whole.
/// - **Lifetime**: effects hold the store weakly; releasing the store cancels them all.
/// - **Scoping**: `scope(state:action:)`
///   gives a child store that reads through to this one and forwards its actions here.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action>: Observable {
  @usableFromInline let core: any Core<State, Action>
  /// The core when it is the root of the tree: a read reaches its state directly, in code
  /// specialized where the read is written (see `subscript(dynamicMember:)`).
  @usableFromInline let rootCore: RootCore<State, Action>?
  /// The state a scoped core last read through to the root, while the root's state is
  /// unchanged (see ScopedStateCache.swift): a child store's read again costs a field access.
  @usableFromInline let scopedStateCache: ScopedStateCache<State>?
  /// The registrar Observation's readers (views, `withObservationTracking`) register with, the
  /// store being its subject; its key paths are `\Store.[observationSlot:]` (see
  /// `ObservedValue.storeKeyPath`). What they read is in `observation`.
  @usableFromInline let registrar = ObservationRegistrar()
  // NB: `@exclusivity(unchecked)`: read at every read of the store, on the main actor; each
  // access ends before any call out of `StoreObservation` (see its NB).
  /// What the store's readers observe (see StoreObservation.swift).
  @usableFromInline @exclusivity(unchecked) var observation = StoreObservation<State, Action>()
  /// Child stores made by `scope`, so that a scope asked for twice is the same store.
  var children: [ScopeID: AnyObject] = [:]
  /// The `states` streams made from this store, told its last state when it is released (an
  /// unread stream is not told each batch: see `LatestState`).
  var stateStreams: [WeakStateStream] = []

  @usableFromInline
  package init(core: any Core<State, Action>) {
    self.core = core
    self.rootCore = core as? RootCore<State, Action>
    self.scopedStateCache = core.stateCache
  }

  /// A store over a root whose actions are events of an idiom (a reactor's actions and
  /// mutations, a feedback system's events and its loop's start and stop, a stub's actions and
  /// set states): it shows the root's state, and its actions are the root's events `embed`
  /// makes.
  @usableFromInline
  package convenience init<Event>(
    events root: RootCore<State, Event>, embed: @escaping (Action) -> Event
  ) {
    self.init(core: ScopedCore(parent: root, toState: { $0 }, fromAction: embed))
  }

  // NB: not an isolated deinit, which would run what the store's release releases in turn (a
  // feedback loop's report of unseen events) without the releasing task's task-local values. A
  // store released off the main thread tells its streams from a main-actor task.
  deinit {
    guard !stateStreams.isEmpty else { return }
    let core = self.core
    let streams = stateStreams
    if Thread.isMainThread {
      MainActor.assumeIsolated { Self.storeReleased(core: core, streams: streams) }
    } else {
      Task { @MainActor in Self.storeReleased(core: core, streams: streams) }
    }
  }

  /// Tells the `states` streams of a released store its last state.
  private static func storeReleased(core: any Core<State, Action>, streams: [WeakStateStream]) {
    let state = core.state
    for stream in streams { stream.value?.storeReleased(lastState: state) }
  }

  /// Creates a store that runs the reducer built by `reducer` on `initialState`.
  ///
  /// ```swift
  /// let store = Store(initialState: Feature.State()) {
  ///   Feature()
  /// }
  /// ```
  @inlinable
  public convenience init<R: Reducer<State, Action>>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R
  ) {
    let reducer = reducer()
    self.init(
      core: RootCore(initialState: initialState, reducer: reducer))
  }

  /// Creates a store that runs `reducer` on `initialState`.
  ///
  /// ```swift
  /// let store = Store(initialState: Counter.State(), reducer: Counter())
  /// ```
  @inlinable
  public convenience init<R: Reducer<State, Action>>(initialState: State, reducer: R) {
    self.init(initialState: initialState) { reducer }
  }

  /// The whole state. Reading it observes all of it: prefer reading the fields a view shows
  /// (`store.count`), which observes only those.
  public var state: State {
    let state = core.state
    trackRead(\State.self, value: state)
    return state
  }

  /// Reads a field (or computed property) of the state and observes it.
  @inlinable @inline(__always)
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    // NB: inlined where it is written (`store.count`), so that it is specialized for the
    // state's type and the key path literal: a root store's read becomes a field access, and a
    // read again finds what it observes by the field's offset and type, constants here (see
    // `ReadSiteKey` and `StoreObservation.readAgain(_:in:)`), with no generic metadata lookup and no hashing.
    let value: Value
    if let rootCore {
      value = rootCore.currentState[keyPath: keyPath]
    } else if let scopedStateCache, let state = scopedStateCache.value {
      value = state[keyPath: keyPath]
    } else {
      value = core.state[keyPath: keyPath]
    }
    if !observation.readAgain(keyPath, in: self) {
      trackRead(keyPath, value: value)
    }
    return value
  }

  /// Reads a field (or computed property) of the state and observes it, exactly as
  /// `store.field` does: the spelling for a field whose name is taken by a member of `Store`.
  ///
  /// ```swift
  /// struct State { var values: [Int] = []; var state = "idle" }
  ///
  /// store[\.values]  // `store.values` is the store's `values(_:)` stream
  /// store[\.state]   // `store.state` is the whole state
  /// ```
  ///
  /// The names `Store` takes are listed in the Observation article.
  @inlinable @inline(__always)
  public subscript<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
    self[dynamicMember: keyPath]
  }

  /// Reads the state without observing it: for code that must not subscribe to changes.
  public func withState<Value>(_ read: (State) -> Value) -> Value {
    read(core.state)
  }

  /// Sends an action: the reducer runs before this returns.
  ///
  /// - Returns: A task that finishes when every effect the action started, and the actions
  ///   those effects sent, are done: `await store.send(.refresh).finish()`.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    core.send(action, group: nil, cause: nil)
  }

  /// The number of effect tasks the store tree is running (for tests and diagnostics).
  public var runningEffectCount: Int {
    core.runtime.effects.runningEffectCount
  }
}

/// A store of a reducer's state and actions: `StoreOf<Counter>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// Identifies a child store among a store's scopes.
struct ScopeID: Hashable {
  let state: AnyKeyPath
  let action: AnyHashable
}
