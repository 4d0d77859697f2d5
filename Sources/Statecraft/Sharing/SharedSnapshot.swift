// Owns what a recording needs to keep a state that holds shared values: the value each shared
// reference had at a step. A state holding a `Shared` holds a reference, so every stored copy of
// it reads the value as it is now; a recorder keeps a snapshot beside each stored state, and
// encoding a stored state (or jumping to it) uses the snapshot.

/// The values that the shared references a state holds had at one moment.
///
/// NB: `@unchecked Sendable`: the values are the `Sendable` values of shared references, kept as
/// `Any`; the table is never mutated after it is made.
package struct SharedSnapshot: @unchecked Sendable {
  private var values: [ObjectIdentifier: (reference: any AnySharedReference, value: Any)] = [:]

  /// The values now of `references`.
  package init(of references: [any AnySharedReference]) {
    for reference in references {
      values[ObjectIdentifier(reference)] = (reference, reference.anyCurrentValue)
    }
  }

  /// The snapshot of the given values.
  init(entries: [(reference: any AnySharedReference, value: Any)]) {
    for (reference, value) in entries { values[ObjectIdentifier(reference)] = (reference, value) }
  }

  /// Each reference and the value it had.
  var entries: [(reference: any AnySharedReference, value: Any)] {
    values.values.map { ($0.reference, $0.value) }
  }

  /// Whether the snapshot holds no value.
  package var isEmpty: Bool { values.isEmpty }

  /// Whether the snapshot holds the value `reference` had.
  package func holds(_ reference: AnyObject) -> Bool {
    values[ObjectIdentifier(reference)] != nil
  }

  /// The value `reference` had, if it is one of the snapshot's.
  func value(of reference: AnyObject) -> Any? {
    values[ObjectIdentifier(reference)]?.value
  }

  /// Writes each value back into its shared reference (time travel): every holder sees it, and
  /// a persisted one is saved.
  package func restore() {
    for (reference, value) in values.values { reference.restore(value) }
  }

  /// The snapshot that encoding and dumping read shared values from, while one is in use.
  @TaskLocal static var reading: SharedSnapshot?

  /// Runs `body` (an encoding, a dump) with the shared values it meets read from this
  /// snapshot.
  @discardableResult
  package func whileReading<R>(_ body: () throws -> R) rethrows -> R {
    try Self.$reading.withValue(self, operation: body)
  }

  /// The shared references that `value` holds at any depth, each once.
  ///
  /// NB: a collection is searched through its first element only: its elements share a type,
  /// and walking a list of 100,000 rows at every recorded step would cost more than the step.
  package static func references(in value: Any) -> [any AnySharedReference] {
    var found: [ObjectIdentifier: any AnySharedReference] = [:]
    var order: [any AnySharedReference] = []
    func visit(_ value: Any, depth: Int) {
      if let holder = value as? any SharedReferenceHolder {
        let reference = holder.anyReference
        if found.updateValue(reference, forKey: ObjectIdentifier(reference)) == nil {
          order.append(reference)
        }
        return
      }
      guard depth < 32 else { return }
      let mirror = Mirror(reflecting: value)
      switch mirror.displayStyle {
      case .collection?, .set?, .dictionary?:
        if let first = mirror.children.first { visit(first.value, depth: depth + 1) }
      default:
        for child in mirror.children { visit(child.value, depth: depth + 1) }
      }
    }
    visit(value, depth: 0)
    return order
  }
}

extension SharedSnapshot? {
  /// Runs `body` with the shared values it meets read from the snapshot if there is one, and
  /// as they are now if there is none (a state that holds no shared value).
  @discardableResult
  package func whileReading<R>(_ body: () throws -> R) rethrows -> R {
    switch self {
    case .some(let snapshot): try snapshot.whileReading(body)
    case .none: try body()
    }
  }
}
