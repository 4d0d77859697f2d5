import ConcurrencyExtras
import Testing

/// Every engine test runs on the main serial executor, one at a time: the executor hook is
/// process-wide, so suites must not run in parallel with each other.
@MainActor
@Suite(.serialized, .mainSerialExecutor)
struct Engine {}

struct MainSerialExecutorTrait: TestTrait, SuiteTrait, TestScoping {
  var isRecursive: Bool { true }

  func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withMainSerialExecutor { try await function() }
  }
}

extension Trait where Self == MainSerialExecutorTrait {
  /// Runs the test's tasks one at a time on the main thread, in a repeatable order.
  static var mainSerialExecutor: Self { Self() }
}

/// A one-shot signal between a test and an effect: `wait()` returns once `open()` was called
/// (or the waiting task is cancelled).
final class Gate: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  func open() {
    continuation.yield()
    continuation.finish()
  }

  func wait() async {
    for await _ in stream { return }
  }
}
