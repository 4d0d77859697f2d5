import IssueReporting

/// Where a misuse or a test failure should be reported: the user's call site.
///
/// NB: `package`, so that StatecraftTesting reports its failures through the same type.
@usableFromInline
package struct SourceLocation: Sendable {
  package let fileID: StaticString
  package let filePath: StaticString
  package let line: UInt
  package let column: UInt

  @usableFromInline
  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// Reports `message` as an issue at this location: a test failure in tests, a runtime warning
  /// in an app.
  package func report(_ message: String) {
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Reports `message` at this location as a warning, which fails no test.
  package func warn(_ message: String) {
    reportIssue(
      message, severity: .warning, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
