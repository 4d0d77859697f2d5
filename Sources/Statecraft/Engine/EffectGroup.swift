// Owns the tasks behind one `StoreTask`: the effects an action started (and those its effects'
// actions started) join its group, so that `await store.send(action).finish()` waits for them and
// `cancel()` cancels them, through EffectRegistry.swift.

/// The tasks behind one ``StoreTask``: they join when started and leave when they finish.
@MainActor
@usableFromInline
package final class EffectGroup {
  private var tasks: [UInt64: Task<Void, Never>] = [:]
  private(set) var isCancelled = false
  /// The registry that runs the tasks: cancelling goes through it, so that it knows which of its
  /// effects are over.
  private weak var registry: EffectRegistry?

  nonisolated init() {}

  var isEmpty: Bool { tasks.isEmpty }

  func add(_ token: UInt64, _ task: Task<Void, Never>, registry: EffectRegistry) {
    self.registry = registry
    tasks[token] = task
    if isCancelled { registry.cancelEffect(token) }
  }

  func remove(_ token: UInt64) {
    tasks[token] = nil
  }

  func cancel() {
    isCancelled = true
    for (token, task) in tasks {
      if let registry { registry.cancelEffect(token) } else { task.cancel() }
    }
  }

  func finish() async {
    await withTaskCancellationHandler {
      // NB: tasks started by actions a task sent join the group before that task ends, so this
      // loop sees all of them. A task normally leaves the group when it ends; removing it here
      // too covers tasks whose store was released before they ended.
      while let (token, task) = tasks.first {
        await task.value
        tasks[token] = nil
      }
    } onCancel: {
      Task { @MainActor in self.cancel() }
    }
  }
}
