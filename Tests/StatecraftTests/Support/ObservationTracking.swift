import ConcurrencyExtras
import Observation

/// Reads `read` under `withObservationTracking` and returns a count of the notifications that
/// follow: 0 while nothing `read` observed has changed, 1 once something has (an observation
/// fires once).
func track(_ read: @escaping () -> Void) -> LockIsolated<Int> {
  let notified = LockIsolated(0)
  withObservationTracking {
    read()
  } onChange: {
    notified.withValue { $0 += 1 }
  }
  return notified
}
