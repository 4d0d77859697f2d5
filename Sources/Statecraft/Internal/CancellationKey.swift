import ConcurrencyExtras

/// Where an effect runs inside a store: the path of child feature instances (an `ifLet` child, a
/// `forEach` row, an enum case scope) that returned it. Empty for the store's own reducer.
typealias Namespace = [AnyHashableSendable]

/// A cancellation id as the store keys it: the id and the namespace of the feature instance.
struct CancellationKey: Hashable, Sendable {
  let namespace: Namespace
  let id: AnyHashableSendable
}

extension Array where Element == AnyHashableSendable {
  func hasPrefix(_ prefix: Self) -> Bool {
    count >= prefix.count && self[..<prefix.count].elementsEqual(prefix)
  }
}
