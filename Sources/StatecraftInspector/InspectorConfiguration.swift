import Foundation

/// How an ``Inspector`` listens, what it accepts from a page, and what it offers.
///
/// ```swift
/// var configuration = InspectorConfiguration()
/// configuration.port = 9090
/// let inspector = try await Inspector(store: store, configuration: configuration)
/// ```
public struct InspectorConfiguration {
  /// The port on 127.0.0.1 to listen on; 0 (the default) picks a free one.
  public var port: Int
  /// The largest socket message a page may send, in bytes (1 MiB by default). A larger one is
  /// answered with an error, and the socket stays open.
  public var maximumMessageSize: Int
  /// The largest session a page may import, in bytes (64 MiB by default).
  public var maximumImportSize: Int
  /// Makes a test from an exported session (the JSON of a `Recording`), for the page's
  /// "Generate test" button; the button is hidden while this is nil.
  public var generateTest: (@MainActor (Data) throws -> String)?

  /// A configuration: any free port, 1 MiB messages, 64 MiB imports, no test generator.
  public init(
    port: Int = 0,
    maximumMessageSize: Int = 1 << 20,
    maximumImportSize: Int = 64 << 20,
    generateTest: (@MainActor (Data) throws -> String)? = nil
  ) {
    self.port = port
    self.maximumMessageSize = maximumMessageSize
    self.maximumImportSize = maximumImportSize
    self.generateTest = generateTest
  }
}
