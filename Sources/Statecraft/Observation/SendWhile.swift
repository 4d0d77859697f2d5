extension Store {
  /// Sends an action and suspends while `predicate` holds for the state (pull to refresh).
  ///
  /// ```swift
  /// .refreshable {
  ///   await store.send(.refresh, while: \.isRefreshing)
  /// }
  /// ```
  ///
  /// Returns at once if the predicate is false after the action is reduced. Cancelling the
  /// waiting task cancels the effects the action started.
  public func send(_ action: Action, while predicate: KeyPath<State, Bool>) async {
    await send(action, while: { $0[keyPath: predicate] })
  }

  /// Sends an action and suspends while `predicate` holds for the state.
  public func send(_ action: Action, while predicate: @escaping (State) -> Bool) async {
    let task = send(action)
    await withTaskCancellationHandler {
      await wait(while: predicate)
    } onCancel: {
      Task { @MainActor in task.cancel() }
    }
  }

  /// Suspends until `predicate` is false for the state (checked after each batch).
  public func wait(while predicate: @escaping (State) -> Bool) async {
    guard predicate(core.state) else { return }
    for await holds in makeStream(initial: true, next: { predicate($0) }) where !holds {
      return
    }
  }
}
