/// Why an inspector could not start.
public enum InspectorError: Error, CustomStringConvertible, Equatable {
  /// The server could not bind 127.0.0.1 at `port`; `reason` says why.
  case couldNotBind(port: Int, reason: String)
  /// The store given is a scope of a larger tree (made by `scope`), whose root's state is of
  /// the type `root`: an inspector inspects a tree from its root.
  case scopedStore(root: String)

  /// What went wrong and how to fix it.
  public var description: String {
    switch self {
    case .couldNotBind(let port, let reason):
      """
      The inspector could not listen on 127.0.0.1 port \(port): \(reason). Pick another port \
      in the configuration, or 0 for any free one.
      """
    case .scopedStore(let root):
      """
      The inspector was given a store made by `scope`: it inspects a store tree from its root, \
      whose state is \(root). Give it the root store, and to inspect one feature of the tree, \
      name the feature's state and action case: `Inspector(store: root, state: \\.feature, \
      action: ...)`.
      """
    }
  }
}
