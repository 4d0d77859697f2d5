/// The tasks behind one ``StoreTask``: they join when started and leave when they finish.
@MainActor
final class EffectGroup {
  private var tasks: [UInt64: Task<Void, Never>] = [:]
  private(set) var isCancelled = false

  nonisolated init() {}

  var isEmpty: Bool { tasks.isEmpty }

  func add(_ token: UInt64, _ task: Task<Void, Never>) {
    if isCancelled { task.cancel() }
    tasks[token] = task
  }

  func remove(_ token: UInt64) {
    tasks[token] = nil
  }

  func cancel() {
    isCancelled = true
    for task in tasks.values { task.cancel() }
  }

  func finish() async {
    await withTaskCancellationHandler {
      // NB: a task removes itself from the group before its `value` is available, and tasks
      // started by actions it sent join before it ends, so this loop sees all of them.
      while let task = tasks.values.first {
        await task.value
      }
    } onCancel: {
      Task { @MainActor in self.cancel() }
    }
  }
}
