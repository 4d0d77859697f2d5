import Statecraft

/// Keeps the tasks of the actions a demo sent, so that it can wait for their effects (before
/// quitting, or for a `wait` command).
@MainActor
public final class TaskTracker {
  private var tasks: [StoreTask] = []

  public init() {}

  /// Remembers `task` until it has finished; returns it.
  @discardableResult
  public func track(_ task: StoreTask) -> StoreTask {
    tasks.removeAll { $0.hasFinished }
    tasks.append(task)
    return task
  }

  /// Waits until every tracked task, and any tracked while waiting, has finished.
  public func waitForAll() async {
    while let task = tasks.first {
      await task.finish()
      tasks.removeFirst()
    }
  }

  /// Cancels every tracked task's effects.
  public func cancelAll() {
    for task in tasks { task.cancel() }
  }
}
