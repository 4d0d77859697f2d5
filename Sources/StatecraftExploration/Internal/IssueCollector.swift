import ConcurrencyExtras
import IssueReporting

/// Collects the issues reported during a session instead of failing the test at once.
final class IssueCollector: IssueReporter {
  private let messages = LockIsolated<[String]>([])

  var count: Int { messages.value.count }

  func message(at index: Int) -> String { messages.value[index] }

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let text = message() ?? "an issue at \(fileID):\(line)"
    messages.withValue { $0.append(text) }
  }

  func reportIssue(
    _ error: any Error,
    _ message: @autoclosure () -> String?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let text = [message(), "\(error)"].compactMap { $0 }.joined(separator: ": ")
    messages.withValue { $0.append(text) }
  }
}
