/// A generated value with the simpler values it can shrink to, worked out when asked.
struct Shrinkable<Value> {
  let value: Value
  let shrinks: () -> [Shrinkable<Value>]

  init(_ value: Value, shrinks: @escaping () -> [Shrinkable<Value>] = { [] }) {
    self.value = value
    self.shrinks = shrinks
  }

  /// A value whose shrinks are what `shrink` gives, each shrinking in turn by `shrink`.
  init(_ value: Value, shrink: @escaping (Value) -> [Value]) {
    self.init(value) { shrink(value).map { Shrinkable($0, shrink: shrink) } }
  }

  func map<NewValue>(_ transform: @escaping (Value) -> NewValue) -> Shrinkable<NewValue> {
    Shrinkable<NewValue>(transform(value)) { shrinks().map { $0.map(transform) } }
  }

  /// An integer that shrinks toward `target`: to it, then halfway, then one step closer.
  static func integer(_ value: Int, toward target: Int) -> Shrinkable<Int> where Value == Int {
    Shrinkable<Int>(value) {
      guard value != target else { return [] }
      var candidates = [target]
      // NB: the midpoint without `value - target`, which overflows when they are far apart
      // (`Int.max` toward a negative target).
      let half = (value & target) + ((value ^ target) >> 1)
      if half != target && half != value { candidates.append(half) }
      let closer = value > target ? value - 1 : value + 1
      if !candidates.contains(closer) && closer != value { candidates.append(closer) }
      return candidates.map { integer($0, toward: target) }
    }
  }
}
