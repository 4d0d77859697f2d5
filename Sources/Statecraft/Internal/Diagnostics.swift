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
    means an effect of the child kept running after the child was dismissed, or a parent sent \
    a child action after setting the state to nil. Cancel the child's effects when it goes away \
    (Statecraft does this for effects the child started), or check that the child is present \
    before sending to it.
    """
  }

  static func forEachActionForMissingElement(
    action: Any, id: Any, statePath: AnyKeyPath, parent: Any.Type
  ) -> String {
    """
    A 'forEach' in '\(parent)' received an action for an element that is not in the collection:

      id: \(id)
      action: \(action)

    No element with this id was in '\(statePath)'. This usually means the element was removed \
    while an action for it was on its way, or a parent sent a row action with a stale id. \
    Remove rows through the reducer (their effects are then cancelled) and check the id before \
    sending to a row.
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
}
