import ConcurrencyExtras

/// Turns the main serial executor on while any test store is alive, and restores what was there
/// when the last one ends: a test needs no trait or wrapper to be deterministic.
@MainActor
package enum MainSerialExecutorUse {
  private static var liveTestStores = 0
  private static var wasOn = false

  package static func begin() {
    if liveTestStores == 0 {
      wasOn = uncheckedUseMainSerialExecutor
      uncheckedUseMainSerialExecutor = true
    }
    liveTestStores += 1
  }

  package static func end() {
    guard liveTestStores > 0 else { return }
    liveTestStores -= 1
    if liveTestStores == 0 { uncheckedUseMainSerialExecutor = wasOn }
  }
}
