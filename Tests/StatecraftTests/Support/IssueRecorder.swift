import ConcurrencyExtras
import IssueReporting
import Testing

/// Records the issues reported while it is installed, so a test can count them.
final class IssueRecorder: IssueReporter {
  let messages = LockIsolated<[String]>([])

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let message = message() ?? ""
    messages.withValue { $0.append(message) }
  }
}

/// Runs `body`, expecting exactly one reported issue whose text contains every fragment.
@MainActor
func expectOneFailure(
  containing fragments: [String],
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @MainActor () async -> Void
) async {
  let recorder = IssueRecorder()
  await withKnownIssue {
    await withIssueReporters(IssueReporters.current + [recorder]) {
      await body()
    }
  } matching: { issue in
    fragments.allSatisfy { issue.description.contains($0) }
  }
  #expect(
    recorder.messages.count == 1, "\(recorder.messages.value)", sourceLocation: sourceLocation)
}
