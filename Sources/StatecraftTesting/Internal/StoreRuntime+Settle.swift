import Statecraft

extension StoreRuntime {
  /// Lets the work that is already due run: effects resumed by a clock, actions on their way.
  /// What a test store does after each step, and exploration between the steps of a session.
  ///
  /// NB: on the main serial executor every job is queued on the main actor, in order, so each
  /// yield runs the jobs queued before it. This yields until `quietYields` yields in a row change
  /// nothing in the store (no batch, no effect started, finished or cancelled), and at most
  /// 10,000 times.
  @MainActor
  package func settle(quietYields required: Int) async {
    var quietYields = 0
    var last = effects.waiters.changeCount
    var yields = 0
    while quietYields < required && yields < 10_000 {
      await Task.yield()
      yields += 1
      if effects.waiters.changeCount == last {
        quietYields += 1
      } else {
        last = effects.waiters.changeCount
        quietYields = 0
      }
    }
  }
}
