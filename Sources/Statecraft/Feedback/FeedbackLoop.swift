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
  /// Shows the feedbacks the states made before the loop started, in order, up to the state
  /// numbered `through`: sent by the work of the event that made that state, so that the
  /// feedbacks' work joins the event's `StoreTask`.
  case catchUp(through: UInt64)
}

extension FeedbackLoopEvent: Sendable where Event: Sendable {}

/// Whether a feedback system's loop is running, the states made before it ran, and what each
/// feedback has seen: kept with the store, used only by its reducer (on the main actor).
@usableFromInline
package final class FeedbackLoop<State: Sendable, Event: Sendable> {
  @usableFromInline var isRunning = false
  /// Whether the loop ever started.
  @usableFromInline var hasStarted = false
  /// The state before the first event sent while the loop was not running.
  @usableFromInline var stateBeforeBuffered: State?
  /// The state after each event sent while the loop was not running, that the feedbacks have
  /// not seen yet, numbered in order; then the states made by feedbacks' events while those
  /// were waiting (not numbered: shown with the state before them).
  @usableFromInline var buffered: [(number: UInt64?, state: State)] = []
  @usableFromInline var nextNumber: UInt64 = 0
  /// What the work of each event sent before the loop ran waits for: the loop's start.
  @usableFromInline var waiting: [AsyncStream<Void>.Continuation] = []
  @usableFromInline var evaluators: [(State, Bool) -> Feedback<State, Event>.Outcome] = []

  @usableFromInline
  package init() {}

  /// How many events were reduced without their states ever being shown to the feedbacks.
  var unprocessedEventCount: Int { hasStarted ? 0 : buffered.count }

  // NB: reported here rather than when the store's runtime is released: the runtime's
  // isolated deinit runs without the releasing task's task-local values (its issue reporters).
  deinit {
    for continuation in waiting { continuation.finish() }
    let count = unprocessedEventCount
    if count > 0 {
      reportIssue(Diagnostics.feedbackLoopNeverRan(unprocessedEventCount: count))
    }
  }
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
        // NB: reduced at once, so that the state (and a binding's getter) shows the event; the
        // feedbacks see the state it made when the loop starts, and the event's `StoreTask`
        // waits for that.
        if loop.buffered.isEmpty { loop.stateBeforeBuffered = state }
        system.reduce(into: &state, event: event)
        let number = loop.nextNumber
        loop.nextNumber &+= 1
        loop.buffered.append((number, state))
        let (started, continuation) = AsyncStream.makeStream(of: Void.self)
        loop.waiting.append(continuation)
        return .run { send in
          for await _ in started {}
          await send(.catchUp(through: number))
        }
      }
      if case .feedback = action, !loop.buffered.isEmpty {
        // NB: a feedback's event while earlier states wait to be shown: its state waits behind
        // them, so that the feedbacks see the states in the order they were made.
        system.reduce(into: &state, event: event)
        loop.buffered.append((nil, state))
        return .none
      }
      // NB: the common case, nothing left to catch up on, builds no merge.
      guard !loop.buffered.isEmpty else {
        system.reduce(into: &state, event: event)
        return evaluate(state, isInitial: false)
      }
      let caughtUp = catchUp(through: .max)
      system.reduce(into: &state, event: event)
      return .merge(caughtUp, evaluate(state, isInitial: false))
    case .start:
      loop.isRunning = true
      loop.hasStarted = true
      loop.evaluators = system.feedbacks.map { $0.makeEvaluator() }
      let initial = evaluate(loop.stateBeforeBuffered.take() ?? state, isInitial: true)
      let waiting = loop.waiting
      loop.waiting.removeAll()
      for continuation in waiting { continuation.finish() }
      return initial
    case .catchUp(let number):
      return catchUp(through: number)
    case .stop:
      loop.isRunning = false
      loop.evaluators.removeAll()
      loop.buffered.removeAll()
      loop.stateBeforeBuffered = nil
      return .cancelNamespace(Self.namespace)
    }
  }

  /// Shows the feedbacks, in order, the states made before the loop started that they have not
  /// seen yet, up to the state numbered `last`.
  @inlinable
  func catchUp(through last: UInt64) -> Effect<LoopEvent> {
    var effects: [Effect<LoopEvent>] = []
    guard loop.isRunning else { return .none }
    while let next = loop.buffered.first, next.number.map({ $0 <= last }) ?? true {
      loop.buffered.removeFirst()
      effects.append(evaluate(next.state, isInitial: false))
    }
    return .merge(effects)
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

/// Lets ``Store/run(fileID:filePath:line:column:)`` start and stop the loop of the store's
/// feedback system.
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
  /// Events sent before ``run(fileID:filePath:line:column:)`` starts the feedbacks are reduced
  /// at once (the state, and a binding's getter, show them); the feedbacks see each state they
  /// made, in order, when the loop starts, and `await store.send(event).finish()` waits until
  /// then and for the work the feedbacks started for that state. Releasing the store with such
  /// events while the loop never ran is reported.
  @inlinable
  public convenience init<System: FeedbackSystem>(initialState: State, system: System)
  where System.State == State, System.Event == Action {
    let loop = FeedbackLoop<State, Action>()
    // NB: made once and captured, not at every event (see `init(initialState:reactor:)`).
    let reducer = FeedbackReducer(system: system, loop: loop)
    let root = RootCore(initialState: initialState, reducer: reducer)
    root.runtime.attach(
      FeedbackLoopControl(
        start: { [weak root] in _ = root?.send(.start, group: nil) },
        stop: { [weak root] in _ = root?.send(.stop, group: nil) }
      ))
    self.init(events: root, embed: { .event($0) })
  }

  /// Runs the store's feedback system until the calling task is cancelled: starts the feedbacks
  /// (showing them the states made by the events sent so far, in order), and returns once every
  /// feedback has stopped.
  ///
  /// ```swift
  /// .task { await store.run() }   // SwiftUI: the loop lives as long as the view
  /// ```
  ///
  /// Calling it on a store that does not run a feedback system is reported as an issue at the
  /// call, and returns at once.
  public func run(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let control = core.runtime.attachment(FeedbackLoopControl.self) else {
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        .report(Diagnostics.runWithoutFeedbackSystem)
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
    for task in core.runtime.effects.tasks(namespacePrefix: namespace) {
      await task.value
    }
  }
}
