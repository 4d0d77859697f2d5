/// Returns an equality check for `Value` when it is `Equatable` at run time, else nil.
///
/// Observation compares values with `==` where it can; values that aren't `Equatable` count as
/// changed whenever the store publishes.
func equalityCheck<Value>(for type: Value.Type) -> ((Value, Value) -> Bool)? {
  guard let equatable = type as? any Equatable.Type else { return nil }
  func check<E: Equatable>(_: E.Type) -> (Value, Value) -> Bool {
    // NB: `Value` and `E` are the same type here, so the bit casts are identity conversions.
    { unsafeBitCast($0, to: E.self) == unsafeBitCast($1, to: E.self) }
  }
  return check(equatable)
}
