import ConcurrencyExtras
import Testing

@testable import Statecraft

/// A misuse is reported at the line of the user's call, not inside the library.
extension Engine {
  @MainActor
  @Suite struct MisuseLocationTests {
    /// Expects `body` to report one issue, at `line` of this file.
    func expectIssue(
      atLine line: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation,
      _ body: @MainActor () async -> Void
    ) async {
      let reported = LockIsolated<[Testing.SourceLocation?]>([])
      await withKnownIssue {
        await body()
      } matching: { issue in
        reported.withValue { $0.append(issue.sourceLocation) }
        return true
      }
      let locations = reported.value
      #expect(locations.count == 1, sourceLocation: sourceLocation)
      #expect(locations.first??.fileID == #fileID, sourceLocation: sourceLocation)
      #expect(locations.first??.line == line, sourceLocation: sourceLocation)
    }

    @Test func routesFromAStoreWithoutAReactorPointsAtTheCaller() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      await expectIssue(atLine: #line + 1) {
        _ = store.routes(Int.self)
      }
    }

    @Test func runOnAStoreWithoutAFeedbackSystemPointsAtTheCaller() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      await expectIssue(atLine: #line + 1) {
        await store.run()
      }
    }
  }
}
