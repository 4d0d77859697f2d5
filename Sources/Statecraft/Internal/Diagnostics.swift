/// The messages Statecraft reports for misuse. Each says what happened and how to fix it.
enum Diagnostics {
  static func unhandledEffectError(_ error: any Error) -> String {
    """
    An effect returned from a reducer threw an error that nothing handled:

      \(error)

    Errors thrown by 'Effect.run' without a 'catch' handler are reported rather than swallowed. \
    Catch the error inside the operation, or pass a 'catch' handler that turns it into an \
    action, e.g. '.run { send in ... } catch: { error, send in await send(.failed(error)) }'.
    """
  }

  static func sendAfterEffectFinished(_ action: Any) -> String {
    """
    An effect sent an action after its operation had returned:

      \(action)

    'Send' is valid only while the operation of the 'Effect.run' that received it is running. \
    Await the work that sends instead of escaping 'send' into another task, or return a new \
    effect for it.
    """
  }

  static func sendToReleasedStore(_ action: Any) -> String {
    """
    An effect sent an action to a store that has been released:

      \(action)

    Releasing a store cancels its effects; this one ignored cancellation. Check \
    'Task.isCancelled' (or use cancellation-aware APIs) in long-running effects.
    """
  }

  static func ifLetActionForNilState(
    action: Any, statePath: AnyKeyPath, parent: Any.Type
  ) -> String {
    """
    An 'ifLet' in '\(parent)' received a child action while its child state was nil:

      \(action)

    The child state at '\(statePath)' was nil, so the child reducer could not run. This usually \
    means a parent, or an effect the child did not start, sent a child action after the state \
    was set to nil. (The child's own effects are cancelled when it goes away, and what they \
    would still send is dropped.) Cancel the child's work when it goes away, or check that the \
    child is present before sending to it.
    """
  }

  static func forEachActionForMissingElement(
    action: Any, id: Any, statePath: AnyKeyPath, parent: Any.Type
  ) -> String {
    """
    A 'forEach' in '\(parent)' received an action for an element that is not in the collection:

      id: \(id)
      action: \(action)

    No element with this id was in '\(statePath)'. This usually means a parent, or an effect the \
    row did not start, sent a row action with a stale id. (A row's own effects are cancelled \
    when it is removed, by any reducer, and what they would still send is dropped.) So check \
    the id before sending to a row.
    """
  }

  static func scopeActionForOtherCase(action: Any, state: Any, childState: Any.Type) -> String {
    """
    A 'Scope' over an enum case received a child action while the state was in another case:

      action: \(action)
      state: \(state)

    The child reducer of '\(String(reflecting: childState))' runs only while the state is in \
    its case. This usually means a parent sent a child action after changing the case. Check \
    the case before sending to the child (the effects of a case the state has left are \
    cancelled, and send nothing).
    """
  }

  static func cancelOutsideEffect(id: Any) -> String {
    """
    'Task.cancel(id:)' was called outside an effect run by a store:

      id: \(id)

    It cancels the effects with this id in the store and the feature instance of the effect \
    that calls it, so it only works inside the operation of an 'Effect.run' (or a task that \
    operation started). Outside an effect, return '.cancel(id:)' from the reducer instead.
    """
  }

  static let routesWithoutReactor = """
    'routes' was called on a store that does not run a reactor.

    Routes come from 'Reactor.route(for:)'. Create the store with \
    'Store(initialState:reactor:)' to receive them.
    """

  static let runWithoutFeedbackSystem = """
    'run()' was called on a store that does not run a feedback system.

    'run()' starts the feedbacks of a store created with 'Store(initialState:system:)'. \
    Stores of reducers and reactors start their effects when actions are sent.
    """

  static func recorderStateInterval(_ stateInterval: Int) -> String {
    """
    A recorder was asked to store the state every \(stateInterval) actions.

    The interval must be at least 1 (1 stores every state). Storing every 1 instead.
    """
  }

  static let recorderStartedInAnotherState = """
    A recorder's first action arrived in a state other than the recorder's initial state.

    A replay starts from the initial state, so this recording would not reproduce the \
    session. Build the store from the recorder's state: \
    'Store(initialState: recorder.initialState) { Feature().recording(into: recorder) }'.
    """

  static let recordOnScopedStore = """
    'record(into:)' was called on a store made by 'scope'.

    A store records the actions its root reduces, which are the root feature's, not this \
    child's. (A reactor's or a feedback system's store is such a scope too: its root reduces \
    internal events.) Record the root store of a reducer, or apply 'recording(into:)' to the \
    child feature's reducer: \
    'Scope(state: \\.child, action: \\.child) { Child().recording(into: recorder) }'.
    """

  static func jumpOutOfRange(step: Int, stepCount: Int) -> String {
    """
    'jump(toStep:)' was asked for step \(step) of a recording of \(stepCount) steps.

    The recording's steps are 0 (the initial state) to \(stepCount) (the state after its last \
    action). Pass a step in that range.
    """
  }

  static let jumpOnScopedStore = """
    'jump(toStep:)' was called on a store made by 'scope'.

    A child store reads its state through to the root store, which owns it. Jump the root \
    store, with a recording of the root's state and actions.
    """

  static func bodyOfReduceBasedReducer(_ reducer: Any.Type) -> String {
    """
    '\(reducer)' has no body. Do not access a reducer's 'body' directly: call \
    'reduce(into:action:)' instead.
    """
  }

  static func feedbackLoopNeverRan(unprocessedEventCount count: Int) -> String {
    """
    A feedback system's store was released with \(count) event(s) that its feedbacks never saw:

    The events were reduced, but 'run()' never started the feedback loop, so no feedback reacted \
    to the states they made, and the work they were waiting for never ran. Start the loop while \
    the store is in use, e.g. '.task { await store.run() }' in SwiftUI, or \
    'Task { await store.run() }' and cancel that task when you are done.
    """
  }

  // MARK: - Sharing

  static func sharedWriteOffMainActor(key: String) -> String {
    """
    A shared value was written off the main actor:

      Shared\(key)

    Plain writes ('state.settings.theme = .dark', 'shared.wrappedValue = x') are for the main \
    actor: reducers and views. Another thread's write could interleave with them and lose one \
    of the two. Mutate it with 'withLock' instead: 'shared.withLock { $0.theme = .dark }'.
    """
  }

  static func sharedPersistenceFailed(key: String, error: any Error) -> String {
    """
    A shared value could not be loaded or saved:

      Shared\(key)

    \(error)

    The value stays in memory, and 'shared.error' says why until a save succeeds.
    """
  }

  static func sharedKeyTypeMismatch(id: Any, held: Any.Type, asked: Any.Type) -> String {
    """
    A shared key was asked for a value of another type than the one stored under it:

      key: \(id)
      stored: \(held)
      asked: \(asked)

    Each key holds one value of one type. Use the same type everywhere the key is used, or \
    give the other value its own key. This holder got a value of its own.
    """
  }
}

// MARK: - Navigation

extension Diagnostics {
  static func presentationActionWhileNothingPresented(
    action: Any, statePath: AnyKeyPath, parent: Any.Type
  ) -> String {
    """
    An 'ifLet' in '\(parent)' received an action for a presented child while nothing was \
    presented:

      \(action)

    The presentation at '\(statePath)' was nil, so the child reducer could not run. This usually \
    means a parent, or an effect the child did not start, sent a '.presented' action after the \
    child was dismissed. (The child's own effects are cancelled when it is dismissed or \
    replaced, and what they would still send is dropped.) Check that the child is presented \
    before sending to it, or send '.dismiss' to end a presentation.
    """
  }

  static func dismissWhileNotPresented() -> String {
    """
    'DismissEffect' (or 'Effect.dismiss') was called by a feature that is not presented, and \
    no dismissal is set for it:

    Only the effects of a child run by 'ifLet' over a 'PresentationState' (an '@Presents' \
    property) or by 'forEach' over a 'StackState' can dismiss themselves; nothing was dismissed. \
    Present the feature with 'ifLet(\\.$child, action: \\.child)' or push it on a stack with \
    'forEach(\\.path, action: \\.path)', or have the parent set the state to nil itself. A root \
    feature that its host can close sets '@Dependency(\\.dismiss)' with \
    'withDependencies { $0.dismiss = DismissEffect { ... } }'.
    """
  }

  static func stackActionForMissingElement(
    action: Any, id: Any, statePath: AnyKeyPath, parent: Any.Type
  ) -> String {
    """
    A 'forEach' over a stack in '\(parent)' received an action for an element that is not on \
    the stack:

      id: \(id)
      action: \(action)

    No element with this id is in '\(statePath)': it was popped (ids are never reused, so the \
    action cannot reach a newer element). This usually means a parent, a view, or an effect the \
    element did not start, sent to an element after it was popped. (An element's own effects are \
    cancelled when it is popped, and what they would still send is dropped.) Check that the id \
    is still in 'path.ids' before sending to it.
    """
  }

  static func dismissWhileNothingPresented(
    action: Any, statePath: AnyKeyPath, parent: Any.Type
  ) -> String {
    """
    An 'ifLet' in '\(parent)' received a '.dismiss' while nothing was presented:

      \(action)

    The presentation at '\(statePath)' was already nil, so there was nothing to dismiss. This \
    usually means a view or a parent sent '.dismiss' twice, or after the child was replaced. (A \
    child's own 'dismiss()' after it was dismissed is dropped with its effects, and the \
    navigation bindings send '.dismiss' only while the presentation they read is shown.)
    """
  }

  static func presentationCaseMismatch(current: Any, asked: Any.Type) -> String {
    """
    Can't modify unrelated case "\(caseName(of: current))": a case holding '\(asked)' was \
    changed while the enum destination or stack element was in another case:

      \(current)

    The state was left as it was. Check the case first \
    ('if state.$destination[case: \\.x] != nil'), or assign the whole value \
    ('state.destination = .x(...)').
    """
  }

  static func stackWriteAtMissingID(id: Any, ids: [Any]) -> String {
    """
    An element was written to a stack at an id it doesn't hold, and was dropped:

      id: \(id)
      ids on the stack: \(ids.isEmpty ? "none" : ids.map { "\($0)" }.joined(separator: ", "))

    'path[id:]' changes or removes an element that is on the stack; the element may have been \
    popped. Add an element with 'path.append(...)', which gives it a fresh id.
    """
  }

  static func stackAppendWithStaleID(id: Any, lastID: Any) -> String {
    """
    An element was appended to a stack with an id the stack has already used:

      id: \(id)
      last id: \(lastID)

    Stack ids are never reused, so that an action for a popped element never reaches a newer \
    one; the element was appended with a fresh id. Append with the id of a '.push(id:state:)' \
    only once, or append without an id.
    """
  }

  static func stackPushWithStaleID(id: Any, lastID: Any, statePath: AnyKeyPath, parent: Any.Type)
    -> String
  {
    """
    A 'forEach' over a stack in '\(parent)' received a push with an id the stack has already \
    used:

      id: \(id)
      last id: \(lastID)

    Stack ids are never reused, so that an action for a popped element never reaches a newer \
    one; the push to '\(statePath)' was ignored. Push with a fresh id, e.g. \
    '.push(id: StackElementID(), state: ...)', or append to the stack in a reducer.
    """
  }

  static func presentedStoreSendAfterDismissal(action: Any, statePath: AnyKeyPath) -> String {
    """
    A store of a presented child sent an action after its presentation ended:

      \(action)

    The presentation at '\(statePath)' was dismissed or replaced by another, so the action was \
    dropped rather than delivered to another child. This usually means a view kept the child \
    store of an old presentation. Scope a new store for each presentation, e.g. \
    'store.scope(state: \\.$child, action: \\.child)'.
    """
  }

  /// The name of the case of the enum `value`, else its description.
  private static func caseName(of value: Any) -> String {
    Mirror(reflecting: value).children.first?.label ?? String(describing: value)
  }
}
