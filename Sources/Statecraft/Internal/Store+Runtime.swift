extension Store {
  /// The runtime of the store's root: its effects and the count of its changes, for the
  /// package's tools that drive a store step by step (exploration).
  package var runtime: StoreRuntime { core.runtime }
}
