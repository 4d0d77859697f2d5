import Foundation
import Statecraft
import Synchronization
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

    /// The checkpoints the timeline thins as the app goes on are its largest states: at 20,000
    /// todos with their undo stack, a million todos each. The last holder frees them, and that
    /// must not be the main actor in the middle of the app's send.
    @Test(.timeLimit(.minutes(1)))
    func theCheckpointsThinnedAsTheAppGoesOnAreFreedOffTheMainActor() async throws {
      let frees = Mutex<[(step: Int, onReleaser: Bool, duringSend: Int)]>([])
      let sending = Mutex(0)
      let store = Store(initialState: TrackerHolder.State()) {
        TrackerHolder { step in
          let onReleaser = Thread.current.name == Releaser.threadName
          frees.withLock { $0.append((step, onReleaser, sending.withLock { $0 })) }
        }
      }
      var configuration = InspectorConfiguration()
      configuration.checkpointInterval = 1
      configuration.maximumCheckpoints = 3
      let inspector = try await Inspector(store: store, configuration: configuration)
      try await withInspectorPage(inspector) { page, _ in
        // NB: as when the page's states were encoded off the main actor, which a state that
        // holds an object (this one's tracker) never is.
        inspector.session.hasEncodedOffMainActor = true
        inspector.session.encodesOnMainActor = false
        for step in 1...20 {
          sending.withLock { $0 = step }
          store.send(.next(step))
        }
        sending.withLock { $0 = 0 }
        _ = try await page.readSteps(count: 20)
      }
      // NB: the releaser frees what it is handed in order: once this is freed, so is all that
      // was handed to it before.
      let drained = Gate()
      Releaser.shared.release(DeinitTracker { drained.open() } as Any)
      await drained.wait()
      let freed = frees.withLock { $0 }
      // NB: on the app's thread, a step's tracker goes only when its state leaves the last
      // three the session keeps (`lastStatesKept`), three sends later; the checkpoints of steps
      // 3 and 5, thinned at steps 9 and 17, go on the releaser's thread.
      let kept = InspectorSession<TrackerHolder.State, TrackerHolder.Action>.lastStatesKept
      let onTheAppsThread = freed.filter { !$0.onReleaser && $0.duringSend != 0 }
      #expect(onTheAppsThread.allSatisfy { $0.step == $0.duringSend - kept })
      #expect(Set(freed.filter(\.onReleaser).map(\.step)).isSuperset(of: [3, 5]))
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

/// A state that holds an object of its own at each step, which tells when it is freed.
private struct TrackerHolder: Reducer {
  struct State {
    var tracker: DeinitTracker?
  }
  enum Action {
    case next(Int)
  }
  let onFree: @Sendable (_ step: Int) -> Void

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .next(let step):
      state.tracker = DeinitTracker { onFree(step) }
      return .none
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
