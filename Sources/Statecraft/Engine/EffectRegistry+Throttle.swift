// Owns the glue between a store tree's effects and its throttle windows: what the effect
// interpreter asks when a throttled effect arrives, and when a window opens or elapses. The
// windows' state, and what to do at each of these, is ThrottleStateMachine.swift's.

extension EffectRegistry {
  /// An effect throttled under `key` arrived: what the throttle windows say to do with it.
  func throttle(
    _ effect: @escaping @MainActor () -> Void, key: CancellationKey, latest: Bool
  ) -> ThrottleStateMachine<@MainActor () -> Void>.Arrival {
    throttleWindows.effectArrived(effect, key: key, latest: latest)
  }

  /// Runs `body` as the task of the throttle window under `key`.
  func openThrottleWindow(
    key: CancellationKey,
    context: EffectContext,
    _ body: @escaping @MainActor @Sendable () async -> Void
  ) {
    let token = spawn(context, priority: nil, body)
    throttleWindows.windowOpened(key, token: token)
  }

  /// The interval of the window under `key` elapsed: what to do next.
  func throttleWindowElapsed(
    key: CancellationKey
  ) -> ThrottleStateMachine<@MainActor () -> Void>.Elapsed {
    throttleWindows.windowElapsed(key)
  }
}
