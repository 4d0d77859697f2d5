// Owns how a decoding error is told to a user in one sentence: where it went wrong (a path
// such as 'actions[3].toggle', or the top level) and what was wrong there. A recording that no
// longer decodes and an action the Inspector's page sent that doesn't decode both say it this
// way.

/// An error in a sentence: a `DecodingError` says where it went wrong and what was wrong there
/// (`at 'actions[1].add': Expected to decode Int but found a string instead.`); any other
/// error is described as it describes itself.
package func describeDecoding(_ error: any Error) -> String {
  guard let error = error as? DecodingError else { return "\(error)" }
  func location(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map { key in
      key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
    }.joined()
    return path.isEmpty ? "at the top level" : "at '\(path.drop { $0 == "." })'"
  }
  switch error {
  case .typeMismatch(_, let context), .valueNotFound(_, let context),
    .dataCorrupted(let context):
    return "\(location(context)): \(context.debugDescription)"
  case .keyNotFound(let key, let context):
    return "\(location(context)): no value for '\(key.stringValue)'"
  @unknown default:
    return "\(error)"
  }
}
