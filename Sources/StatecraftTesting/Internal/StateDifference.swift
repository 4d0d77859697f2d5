import CustomDump

/// The diff of two states for a failure message, or nil when they are the same.
///
/// NB: a state that is `Equatable` is compared with `==` first, as TCA's test store does, so
/// that an assertion that holds costs no dump of the state: dumping a big state for every
/// `send` and `receive` made long tests slow.
func stateDifference<State>(_ expected: State, _ actual: State) -> String? {
  if let expected = expected as? any Equatable, isEqual(expected, actual) { return nil }
  return diff(expected, actual, format: .proportional)
}

private func isEqual<Value: Equatable>(_ lhs: Value, _ rhs: Any) -> Bool {
  (rhs as? Value) == lhs
}
