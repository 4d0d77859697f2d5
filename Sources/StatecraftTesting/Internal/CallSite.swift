import IssueReporting

/// The test's line where a test store reports a failure: the call site of `send`, `receive`,
/// `finish`, or of the test store's creation for what its release reports.
///
/// NB: Statecraft's internal `SourceLocation` plays this role for misuse reports. It stays
/// internal: made visible to this package, it would clash with Swift Testing's `SourceLocation`
/// in every test file that imports both.
struct CallSite {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  /// Reports `message` as a test failure here.
  func report(_ message: String) {
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Reports `message` here as a warning, which fails no test (a skipped assertion shown with
  /// `showSkippedAssertions`).
  func warn(_ message: String) {
    reportIssue(
      message, severity: .warning, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
