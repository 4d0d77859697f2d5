/// A feature in the Feedback idiom (RxFeedback, swiftui-async-feedback): events change the
/// state, and feedbacks react to the state by producing more events.
///
/// ```swift
/// struct CounterSystem: FeedbackSystem {
///   struct State: Equatable, Sendable { var count = 1; var message: String? }
///   enum Event: Sendable { case increment, setMessage(String?) }
///
///   func reduce(into state: inout State, event: Event) {
///     switch event {
///     case .increment: state.count += 1
///     case .setMessage(let message): state.message = message
///     }
///   }
///
///   var feedbacks: [Feedback<State, Event>] {
///     [
///       Feedback(.onChanged(\.count)) { state in
///         .setMessage(state.count.isMultiple(of: 3) ? "multiple of 3!!" : nil)
///       }
///     ]
///   }
/// }
///
/// let store = Store(initialState: CounterSystem.State(), system: CounterSystem())
/// Task { await store.run() }   // feedbacks run until this task is cancelled
/// store.send(.increment)
/// ```
///
/// The system runs on the same engine as a ``Reducer``: events are reduced on the main actor in
/// order. Feedbacks run concurrently; a feedback triggered again cancels its stale run. Events
/// sent before ``Store/run(fileID:filePath:line:column:)`` starts the feedbacks are reduced at
/// once; the feedbacks see the states they made, in order, when the loop starts.
public protocol FeedbackSystem {
  /// What the system shows.
  associatedtype State: Sendable
  /// What happens to it, from the user or from feedbacks.
  associatedtype Event: Sendable

  /// Changes the state for an event.
  func reduce(into state: inout State, event: Event)

  /// The feedbacks, evaluated on the initial state when the system starts and after each event.
  var feedbacks: [Feedback<State, Event>] { get }
}

/// A store of a feedback system's state and events: `FeedbackStoreOf<CounterSystem>`.
public typealias FeedbackStoreOf<S: FeedbackSystem> = Store<S.State, S.Event>
