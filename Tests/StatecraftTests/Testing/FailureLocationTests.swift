import Clocks
import ConcurrencyExtras
import IssueReporting
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// Every test-store failure is reported at the line the test passed (its call site by
  /// default): none of the location parameters is ignored.
  @MainActor
  @Suite struct FailureLocationTests {
    struct Feature: Reducer {
      enum Action: Equatable, Sendable {
        case tap
        case tapped
        case wait
      }

      let clock: TestClock<Duration>

      func reduce(into state: inout Int, action: Action) -> Effect<Action> {
        switch action {
        case .tap:
          state += 1
          return .send(.tapped)
        case .tapped:
          return .none
        case .wait:
          return .run { [clock] _ in try await clock.sleep(for: .seconds(1)) }
        }
      }
    }

    /// Records the line of every reported issue.
    final class LineRecorder: IssueReporter {
      let lines = LockIsolated<[UInt]>([])

      func reportIssue(
        _ message: @autoclosure () -> String?,
        severity: IssueSeverity,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
      ) {
        lines.withValue { $0.append(line) }
      }
    }

    /// Runs `body` and returns the lines of the failures it reported.
    func failureLines(_ body: @MainActor () async -> Void) async -> [UInt] {
      let recorder = LineRecorder()
      await withKnownIssue {
        await withIssueReporters(IssueReporters.current + [recorder]) {
          await body()
        }
      }
      return recorder.lines.value
    }

    @Test func aStrictSkipOfReceivedActionsFailsAtTheLineItWasGiven() async {
      let store = TestStore(initialState: 0) { Feature(clock: TestClock()) }
      let lines = await failureLines {
        await store.skipReceivedActions(line: 9001)
      }
      #expect(lines == [9001])
    }

    @Test func aStrictSkipOfInFlightEffectsFailsAtTheLineItWasGiven() async {
      let store = TestStore(initialState: 0) { Feature(clock: TestClock()) }
      let lines = await failureLines {
        await store.skipInFlightEffects(line: 9002)
      }
      #expect(lines == [9002])
    }

    @Test func sendReceiveAndFinishFailAtTheLinesTheyWereGiven() async {
      let store = TestStore(initialState: 0) { Feature(clock: TestClock()) }
      let lines = await failureLines {
        await store.send(.tap, assert: { $0 = 2 }, line: 9003)
        await store.receive(.tap, line: 9004)
        await store.send(.wait, line: 9005)
        await store.finish(timeout: .zero, line: 9006)
      }
      #expect(lines == [9003, 9004, 9006])
    }
  }
}
