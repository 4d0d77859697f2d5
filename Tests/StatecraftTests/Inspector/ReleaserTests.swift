import Foundation
import Statecraft
import Testing

@testable import StatecraftInspector

extension Engine {
  /// What the Inspector lets go of (the timeline a move replaced, the states it recomputed) is
  /// freed off the main actor, on the releaser's thread, only while the feature's states are
  /// encoded off it: a state that held a class instance is freed on the main actor, as the
  /// app's own would be.
  @MainActor
  @Suite struct ReleaserTests {
    @Test(.timeLimit(.minutes(1)))
    func aValueHandedToTheReleaserIsFreedOnItsThread() async {
      let freed = Gate()
      let tracker = DeinitTracker { freed.open() }
      Releaser.shared.release(consume tracker)
      await freed.wait()
      #expect(DeinitTracker.lastThreadName == Releaser.threadName)
    }

    @Test func aSessionWhoseStatesHeldAClassInstanceLetsGoOnTheMainActor() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      let session = inspector.session
      var freedAtOnce = false
      session.hasEncodedOffMainActor = true
      session.encodesOnMainActor = true
      session.letGoOffTheMainActor([DeinitTracker { freedAtOnce = true } as Any])
      // NB: freed before the call returned, on this (the main) actor.
      #expect(freedAtOnce)
      await inspector.stop()
    }

    @Test func aSessionThatEncodedNothingYetLetsGoOnTheMainActor() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      var freedAtOnce = false
      inspector.session.letGoOffTheMainActor([DeinitTracker { freedAtOnce = true } as Any])
      #expect(freedAtOnce)
      await inspector.stop()
    }
  }
}

/// Calls `onDeinit` when it is freed, and notes the name of the thread that freed it.
///
/// NB: `@unchecked Sendable`: `onDeinit` is only called, once, by whoever frees it;
/// `lastThreadName` is written before `onDeinit` opens the gate the test waits on.
private final class DeinitTracker: @unchecked Sendable {
  nonisolated(unsafe) static var lastThreadName: String?
  let onDeinit: () -> Void

  init(_ onDeinit: @escaping () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit {
    Self.lastThreadName = Thread.current.name
    onDeinit()
  }
}
