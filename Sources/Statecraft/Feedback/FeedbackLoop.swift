import ConcurrencyExtras
import IssueReporting

/// The store-internal event of a feedback system's store.
@usableFromInline
package enum FeedbackLoopEvent<Event> {
  /// An event sent to the store.
  case event(Event)
  /// An event a feedback sent.
  case feedback(Event)
  case start
  case stop
}

extension FeedbackLoopEvent: Sendable where Event: Sendable {}

/// Whether a feedback system's loop is running, what it buffered before it ran, and what each
/// feedback has seen: kept with the store, used only by its reducer (on the main actor).
@usableFromInline
package final class FeedbackLoop<State: Sendable, Event: Sendable> {
  @usableFromInline var isRunning = false
  @usableFromInline var buffered: [Event] = []
  @usableFromInline var evaluators: [(State, Bool) -> Feedback<State, Event>.Outcome] = []

  @usableFromInline
  package init() {}
}

/// Runs a ``FeedbackSystem`` as a reducer on the engine.
@usableFromInline
package struct FeedbackReducer<System: FeedbackSystem>: Reducer {
  @usableFromInline
  package typealias LoopEvent = FeedbackLoopEvent<System.Event>

  @usableFromInline let system: System
  @usableFromInline let loop: FeedbackLoop<System.State, System.Event>

  @inlinable
  package init(system: System, loop: FeedbackLoop<System.State, System.Event>) {
    self.system = system
    self.loop = loop
  }

  @usableFromInline
  struct FeedbackID: Hashable, Sendable {
    @usableFromInline let index: Int
    @inlinable init(index: Int) { self.index = index }
  }

  /// The cancellation namespace of every feedback's effects.
  @inlinable
  static var namespace: AnyHashableSendable { AnyHashableSendable(FeedbackNamespace()) }

  @inlinable
  package func reduce(into state: inout System.State, action: LoopEvent) -> Effect<LoopEvent> {
    switch action {
    case .event(let event), .feedback(let event):
      guard loop.isRunning else {
        loop.buffered.append(event)
        return .none
      }
      system.reduce(into: &state, event: event)
      return evaluate(state, isInitial: false)
    case .start:
      loop.isRunning = true
      loop.evaluators = system.feedbacks.map { $0.makeEvaluator() }
      var effects = [evaluate(state, isInitial: true)]
      let buffered = loop.buffered
      loop.buffered.removeAll()
      for event in buffered {
        system.reduce(into: &state, event: event)
        effects.append(evaluate(state, isInitial: false))
      }
      return .merge(effects)
    case .stop:
      loop.isRunning = false
      loop.evaluators.removeAll()
      return .cancelNamespace(Self.namespace)
    }
  }

  @inlinable
  func evaluate(_ state: System.State, isInitial: Bool) -> Effect<LoopEvent> {
    // NB: most events start no feedback: return `.none` without building a merge or a namespace.
    guard !loop.evaluators.isEmpty else { return .none }
    var effects: [Effect<LoopEvent>] = []
    for (index, evaluator) in loop.evaluators.enumerated() {
      switch evaluator(state, isInitial) {
      case .idle:
        continue
      case .cancel:
        effects.append(.cancel(id: FeedbackID(index: index)))
      case .start(let effect):
        effects.append(
          effect.map { .feedback($0) }.cancellable(
            id: FeedbackID(index: index), cancelInFlight: true))
      }
    }
    if effects.isEmpty { return .none }
    return .merge(effects).namespaced(Self.namespace)
  }
}

@usableFromInline
struct FeedbackNamespace: Hashable, Sendable {
  @inlinable init() {}
}

/// Lets ``Store/run()`` start and stop the loop of the store's feedback system.
@MainActor
@usableFromInline
final class FeedbackLoopControl {
  let start: @MainActor () -> Void
  let stop: @MainActor () -> Void
  var runs = 0

  @usableFromInline
  init(start: @escaping @MainActor () -> Void, stop: @escaping @MainActor () -> Void) {
    self.start = start
    self.stop = stop
  }
}

extension Store {
  /// Creates a store that runs a feedback system on `initialState`.
  ///
  /// Events are buffered until ``run()`` starts the feedbacks.
  @inlinable
  public convenience init<System: FeedbackSystem>(initialState: State, system: System)
  where System.State == State, System.Event == Action {
    let loop = FeedbackLoop<State, Action>()
    let root = RootCore<State, FeedbackLoopEvent<Action>>(initialState: initialState) {
      FeedbackReducer(system: system, loop: loop).reduce(into: &$0, action: $1)
    }
    root.runtime.attach(
      FeedbackLoopControl(
        start: { [weak root] in _ = root?.send(.start, group: nil) },
        stop: { [weak root] in _ = root?.send(.stop, group: nil) }
      ))
    self.init(core: ScopedCore(parent: root, toState: { $0 }, fromAction: { .event($0) }))
  }

  /// Runs the store's feedback system until the calling task is cancelled: starts the feedbacks
  /// (reducing the events buffered so far), and returns once every feedback has stopped.
  ///
  /// ```swift
  /// .task { await store.run() }   // SwiftUI: the loop lives as long as the view
  /// ```
  public func run() async {
    guard let control = core.runtime.attachment(FeedbackLoopControl.self) else {
      reportIssue(
        """
        'run()' was called on a store that does not run a feedback system.

        'run()' starts the feedbacks of a store created with 'Store(initialState:system:)'. \
        Stores of reducers and reactors start their effects when actions are sent.
        """)
      return
    }
    control.runs += 1
    if control.runs == 1 { control.start() }
    try? await Task.never()
    control.runs -= 1
    guard control.runs == 0 else { return }
    control.stop()
    // NB: return once every feedback has ended, not just been asked to.
    let namespace: Namespace = [AnyHashableSendable(FeedbackNamespace())]
    for task in core.runtime.tasks(namespacePrefix: namespace) {
      await task.value
    }
  }
}
