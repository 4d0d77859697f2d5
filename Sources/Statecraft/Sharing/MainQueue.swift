import Foundation

/// Marks the main queue, so that code can tell it runs there even when the main queue is
/// drained by a thread other than the main thread (as test runners on Linux do).
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the caller runs on the main queue, where the main actor runs.
func isOnMainActor() -> Bool {
  Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
}
