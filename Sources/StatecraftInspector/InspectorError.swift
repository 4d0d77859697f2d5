/// Why an inspector could not start.
public enum InspectorError: Error, CustomStringConvertible, Equatable {
  /// The server could not bind 127.0.0.1 at `port`; `reason` says why.
  case couldNotBind(port: Int, reason: String)

  /// What went wrong and how to fix it.
  public var description: String {
    switch self {
    case .couldNotBind(let port, let reason):
      """
      The inspector could not listen on 127.0.0.1 port \(port): \(reason). Pick another port \
      in the configuration, or 0 for any free one.
      """
    }
  }
}
