import Statecraft

extension StoreTask {
  /// Waits for the task's effects to finish, and fails the test if they are still running after
  /// `timeout`. Unlike `finish()`, a timeout cancels nothing.
  ///
  /// ```swift
  /// let task = await store.send(.onAppear)
  /// await clock.advance(by: .seconds(1))
  /// await task.finish(timeout: .seconds(1))
  /// ```
  @MainActor
  public func finish(
    timeout: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard !hasFinished else { return }
    let race = Race()
    // NB: a test cancelled while it waits (by its time limit) stops waiting, as a receive does.
    let finished = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        race.continuation = continuation
        race.timer = Task {
          try? await Task.sleep(for: timeout)
          race.resume(false)
        }
        // NB: an unstructured task, so that giving up on it at the timeout doesn't cancel the
        // effects (cancelling a task that awaits `finish()` cancels them).
        Task {
          await self.finish()
          race.resume(true)
        }
      }
    } onCancel: {
      Task { @MainActor in race.resume(false) }
    }
    guard !finished else { return }
    CallSite(fileID: fileID, filePath: filePath, line: line, column: column).report(
      """
      Expected the task to finish within \(timeout), but its effects are still running.

      If an effect waits on a clock, advance it (a 'TestClock') first; cancel the task \
      ('task.cancel()') if its effects are meant to run until the feature goes away.
      """)
  }
}

/// The first of two outcomes.
@MainActor
private final class Race {
  var continuation: CheckedContinuation<Bool, Never>?
  var timer: Task<Void, Never>?

  func resume(_ value: Bool) {
    guard let continuation else { return }
    self.continuation = nil
    timer?.cancel()
    continuation.resume(returning: value)
  }
}
