/// One reaction of a ``FeedbackSystem`` to its state: when its trigger fires, it runs async work
/// that may send events.
///
/// ```swift
/// Feedback(.onChanged(\.count)) { state in
///   state.count > 10 ? .limitReached : nil
/// }
///
/// Feedback.react(to: \.nextPageRequest) { request, send in
///   await send(.pageLoaded(try await api.page(request.page)))
/// }
/// ```
public struct Feedback<State: Sendable, Event: Sendable> {
  @usableFromInline let makeEvaluator: () -> (State, _ isInitial: Bool) -> Outcome

  @usableFromInline
  enum Outcome {
    case idle
    case start(Effect<Event>)
    case cancel
  }

  /// A feedback that runs `effect` whenever `trigger` fires and sends the event it returns
  /// (nothing for nil).
  public init(
    _ trigger: FeedbackTrigger<State>,
    effect: @escaping @Sendable (State) async -> Event?
  ) {
    self.init(trigger) { state, send in
      if let event = await effect(state) { await send(event) }
    }
  }

  /// A feedback that runs `operation` whenever `trigger` fires; it may send any number of
  /// events. A newer firing cancels a run still in flight.
  public init(
    _ trigger: FeedbackTrigger<State>,
    run operation: @escaping @Sendable (State, Send<Event>) async throws -> Void
  ) {
    makeEvaluator = {
      let fires = trigger.makeCondition()
      return { state, isInitial in
        guard fires(state, isInitial) else { return .idle }
        return .start(.run { send in try await operation(state, send) })
      }
    }
  }

  /// A feedback that runs one effect per request: when the value at `keyPath` becomes a new
  /// non-nil request, the run for the previous request is cancelled and a run for the new one
  /// starts; when it becomes nil, the run is cancelled (RxFeedback's `react(request:)`).
  public static func react<Request: Equatable & Sendable>(
    to keyPath: KeyPath<State, Request?>,
    run operation: @escaping @Sendable (Request, Send<Event>) async throws -> Void
  ) -> Self {
    Self {
      var last: Request?
      return { state, isInitial in
        let request = state[keyPath: keyPath]
        defer { last = request }
        guard isInitial || request != last else { return .idle }
        guard let request else { return isInitial ? .idle : .cancel }
        return .start(.run { send in try await operation(request, send) })
      }
    }
  }

  init(makeEvaluator: @escaping () -> (State, Bool) -> Outcome) {
    self.makeEvaluator = makeEvaluator
  }
}

/// When a ``Feedback`` fires.
public struct FeedbackTrigger<State> {
  let makeCondition: () -> (State, _ isInitial: Bool) -> Bool

  /// Fires once, on the state the system starts with.
  public static var once: Self {
    Self { { _, isInitial in isInitial } }
  }

  /// Fires on the initial state, then each time the value at `keyPath` changes (`!=`).
  public static func onChanged<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Self {
    Self {
      var last: Value?
      return { state, isInitial in
        let value = state[keyPath: keyPath]
        defer { last = value }
        return isInitial || value != last
      }
    }
  }

  /// Fires on the initial state and after each event whenever `predicate` holds.
  ///
  /// The feedback's own events count: a feedback whose event leaves the predicate true fires
  /// again (cancelling its run in flight). End the condition with the first event it sends.
  public static func filter(_ predicate: @escaping (State) -> Bool) -> Self {
    Self { { state, _ in predicate(state) } }
  }
}
