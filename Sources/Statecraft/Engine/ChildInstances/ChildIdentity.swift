import ConcurrencyExtras

/// The identity of a child state beyond its place: its enum case and its `Identifiable` id (an
/// enum's own, else its payload's).
struct ChildIdentity: Hashable, Sendable {
  let tag: UInt32?
  let id: UncheckedSendable<AnyHashable>?

  /// The identity of `state`, or nil when it has none (neither an enum nor `Identifiable`).
  static func of<State>(_ state: State) -> AnyHashableSendable? {
    identity(of: state).map { AnyHashableSendable($0) }
  }

  /// The identity of `state`, or nil when it has none.
  static func identity<State>(of state: State) -> Self? {
    let tag = EnumTag.of(state)
    let id = identifiableID(of: state) ?? (tag == nil ? nil : payloadID(of: state))
    guard tag != nil || id != nil else { return nil }
    return Self(tag: tag, id: id.map { UncheckedSendable($0) })
  }

  /// Whether `new`, put in place of `old`, is the same child: both have an `Identifiable` id
  /// (their own, or an enum's payload's in the same case), and it is the same.
  static func isSame<State>(_ old: State, _ new: State) -> Bool {
    guard let old = identity(of: old), old.id != nil else { return false }
    return identity(of: new) == old
  }

  /// The `id` of the payload of the enum `value`, when the payload is `Identifiable`.
  // NB: reflects the enum only: the caller has checked that it is one. A struct child is
  // answered by its conformance alone.
  static func payloadID(of value: Any) -> AnyHashable? {
    guard let payload = Mirror(reflecting: value).children.first?.value else { return nil }
    return identifiableID(of: payload)
  }

  /// The `id` of `value` when it is `Identifiable`.
  static func identifiableID(of value: Any) -> AnyHashable? {
    guard let identifiable = value as? any Identifiable else { return nil }
    func open<Value: Identifiable>(_ value: Value) -> AnyHashable { AnyHashable(value.id) }
    return open(identifiable)
  }
}
