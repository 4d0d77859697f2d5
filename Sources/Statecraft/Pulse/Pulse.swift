import ConcurrencyExtras

/// A state value whose every assignment is an event, even of an equal value: an alert to show,
/// a toast, a scroll target.
///
/// ```swift
/// struct State {
///   @Pulse var alert: String?
/// }
///
/// // In the reducer: each assignment is a new pulse, even "Saved" twice in a row.
/// state.alert = "Saved"
///
/// // In a view or coordinator:
/// for await alert in store.pulses(\.$alert) { present(alert) }
///
/// // In a subscriber's state callback:
/// state.$alert.updated { alert in present(alert) }
/// ```
///
/// A pulse is a value (it keeps State's value semantics) with a version counter that each
/// assignment increments. Two pulses are equal when their versions and values are.
@propertyWrapper
public struct Pulse<Value> {
  private var storage: Value
  /// How many times the value was assigned.
  public private(set) var version: UInt64 = 0
  /// Identifies this pulse (and its copies) to subscribers that remember what they saw.
  let id: UInt64
  /// Which assignment made this value (0 before the first): unique per assignment, unlike `id`
  /// and `version`, which a copy of the pulse shares with the original until one of them is
  /// assigned. Streams and subscribers tell copies apart by it. Not part of equality.
  private(set) var stamp: UInt64 = 0

  /// A pulse holding `wrappedValue`, not yet assigned (version 0).
  public init(wrappedValue: Value) {
    self.storage = wrappedValue
    self.id = pulseIDs.withValue { id in
      defer { id &+= 1 }
      return id
    }
  }

  /// The value; assigning it, even an equal value, is a new pulse.
  public var wrappedValue: Value {
    get { storage }
    set {
      storage = newValue
      version &+= 1
      // NB: while a store whose pulses are streamed reduces, every assignment is logged, so that
      // its streams deliver each one, not only the last of the batch.
      let previous = stamp
      stamp = pulseStamps.withValue { stamp in
        stamp &+= 1
        return stamp
      }
      if let context = ReduceContext.current, context.logsPulses {
        context.pulseLog.append((previous, stamp, newValue))
      }
    }
  }

  /// The pulse itself: `state.$alert`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// The current value.
  public var value: Value { storage }
}

private let pulseIDs = LockIsolated<UInt64>(0)
private let pulseStamps = LockIsolated<UInt64>(0)

extension Pulse: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.version == rhs.version && lhs.storage == rhs.storage
  }
}

extension Pulse: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(version)
    hasher.combine(storage)
  }
}

extension Pulse: Sendable where Value: Sendable {}

extension Pulse: CustomStringConvertible {
  public var description: String { "Pulse(\(storage), version: \(version))" }
}

// MARK: - Subscribers

extension Pulse {
  /// Runs `body` with the value if the pulse was assigned since the subscriber whose
  /// ``StateSubscriber/state(_:)`` is running last saw it.
  ///
  /// Never runs for the first state a subscriber receives (the pulse was not assigned "since"
  /// then), so an alert already shown is not shown again to a new subscriber. Outside a
  /// subscriber's callback it runs whenever the pulse was ever assigned.
  @MainActor
  public func updated(_ body: (Value) -> Void) {
    if let memory = PulseMemory.current {
      if memory.isNew(id: id, stamp: stamp, version: version) { body(storage) }
    } else if version > 0 {
      body(storage)
    }
  }
}

/// What one subscriber has seen of each pulse.
@MainActor
final class PulseMemory {
  static var current: PulseMemory?

  /// For each pulse id, the stamps of the copies read in the last callback that read any of
  /// them. NB: by stamp, not version: two copies of a pulse (two rows made from one) share
  /// their id, and their versions collide once each is assigned.
  private var seen: [UInt64: Set<UInt64>] = [:]
  /// The stamps read in the running callback, by pulse id.
  private var reading: [UInt64: Set<UInt64>] = [:]
  var isFirstState = true

  func isNew(id: UInt64, stamp: UInt64, version: UInt64) -> Bool {
    guard reading[id, default: []].insert(stamp).inserted else { return false }
    if isFirstState || version == 0 { return false }
    return !(seen[id]?.contains(stamp) ?? false)
  }

  /// Runs `body` with this memory as the current one.
  func withCurrent(_ body: () -> Void) {
    let previous = Self.current
    Self.current = self
    defer {
      Self.current = previous
      isFirstState = false
      for (id, stamps) in reading { seen[id] = stamps }
      reading.removeAll(keepingCapacity: true)
    }
    body()
  }
}

extension Store {
  /// Each value assigned to the pulse at `keyPath`, in order: every assignment (equal values
  /// included), even several in one `send` (a reactor's `mutate` that sends two mutations setting
  /// it). Never emits for unrelated changes, nor at subscription.
  ///
  /// Every pulse is an event, so the stream buffers them: a reader that is slower than the
  /// store (three alerts in three back-to-back batches) still receives each one, in order. It
  /// keeps at most `bufferingLimit` unread pulses (100 by default); past that, the oldest unread
  /// pulse is dropped for each new one, so that a stream nobody reads keeps memory bounded. A
  /// pulse replaced rather than assigned (`state.$alert = Pulse(...)`, a whole new state, a
  /// replaced state) counts as one assignment of its value. The stream ends when the store is
  /// released.
  ///
  /// ```swift
  /// for await message in store.pulses(\.$alertMessage) {
  ///   showAlert(message)
  /// }
  /// ```
  public func pulses<Value: Sendable>(
    _ keyPath: KeyPath<State, Pulse<Value>>,
    bufferingLimit: Int = 100
  ) -> AsyncStream<Value> {
    let context = core.runtime.observers.reduceContext
    context.logsPulses = true
    var last = core.state[keyPath: keyPath]
    return makeStream(of: Value.self, bufferingNewest: max(bufferingLimit, 1)) {
      state, continuation in
      let pulse = state[keyPath: keyPath]
      guard
        pulse.version != last.version || pulse.id != last.id || pulse.stamp != last.stamp
      else { return }
      defer { last = pulse }
      // NB: the assignments logged while the batch was reduced, followed back from the one
      // that made this value: a copy of the pulse elsewhere in the state (a row made from
      // another) shares its id and versions, never its stamps. A pulse replaced rather than
      // assigned (a new state) delivers its value.
      var assigned: [Value] = []
      var wanted = pulse.stamp
      if wanted != last.stamp {
        for entry in context.pulseLog.reversed() where entry.stamp == wanted {
          guard let value = entry.value as? Value else { break }
          assigned.append(value)
          wanted = entry.previous
          if wanted == last.stamp { break }
        }
      }
      if assigned.isEmpty {
        continuation.yield(pulse.value)
      } else {
        for value in assigned.reversed() { continuation.yield(value) }
      }
    }
  }
}
