// Owns how a generated test names a stack element id that an action carries: ids come from a
// process-wide counter, so the session's ids are not the test's, and `StackElementID` has no
// public spelling. The test reads the id from its store's state, by where the element sits
// (`store.state.path.ids[1]`): the state the test store reached equals the recorded one, so the
// element is at the same place.
import Statecraft

/// Where each stack element id of a state sits, as an expression that reads it from a test
/// store's state.
///
/// The state is walked the first time an id is asked for: most actions hold none.
final class ElementIDNames {
  private let state: Any
  private let root: String
  private let shared: SharedSnapshot?
  private var names: [StackElementID: String]?

  /// The ids of the stacks in `state`, each named from `root` (`store.state`), its shared
  /// values read as `shared` holds them (when given).
  ///
  /// It walks stored properties, `@Presents` values, optionals, shared values, arrays and
  /// identified arrays; a stack inside an enum's payload or a dictionary has no path a test can
  /// write, and its ids are not named.
  init(of state: Any, root: String, shared: SharedSnapshot?) {
    self.state = state
    self.root = root
    self.shared = shared
  }

  /// The expression of `id`, or nil when the state holds no element with that id (a `push`'s
  /// fresh id).
  subscript(id: StackElementID) -> String? {
    if let names { return names[id] }
    var found: [StackElementID: String] = [:]
    let walk = { Self.visit(self.state, path: self.root, depth: 0, into: &found) }
    if let shared { shared.whileReading(walk) } else { walk() }
    names = found
    return found[id]
  }

  private static func visit(
    _ value: Any, path: String, depth: Int, into names: inout [StackElementID: String]
  ) {
    func visit(_ value: Any, path: String, depth: Int) {
      Self.visit(value, path: path, depth: depth, into: &names)
    }
    guard depth < 32 else { return }
    if let shared = value as? any SharedValue {
      // NB: a shared value's members are read through it (`store.state.box.path`).
      return visit(shared.currentValue, path: path, depth: depth + 1)
    }
    if let stack = value as? any StackValue {
      for (index, id) in stack.stackIDs.enumerated() where names[id] == nil {
        names[id] = "\(path).ids[\(index)]"
      }
      for (index, element) in stack.stackElements.enumerated() {
        visit(element, path: "\(path)[\(index)]", depth: depth + 1)
      }
      return
    }
    if let presentation = value as? any PresentationValue {
      if let presented = presentation.presented {
        visit(presented, path: "\(path).wrappedValue!", depth: depth + 1)
      }
      return
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .struct, .class:
      for child in mirror.children {
        guard let label = child.label else { continue }
        guard label.hasPrefix("_") else {
          visit(child.value, path: "\(path).\(label)", depth: depth + 1)
          continue
        }
        // NB: a `@Presents` property is read as the optional it presents.
        if let presentation = child.value as? any PresentationValue,
          let presented = presentation.presented
        {
          visit(presented, path: "\(path).\(label.dropFirst())!", depth: depth + 1)
        }
      }
    case .optional:
      if let wrapped = mirror.children.first?.value {
        visit(wrapped, path: "\(path)!", depth: depth + 1)
      }
    case .collection:
      guard let first = mirror.children.first?.value, holdsStack(first, depth: 0) else { return }
      let isIdentified = TestGenerator.typeName(of: value).hasPrefix("IdentifiedArray<")
      for (index, child) in mirror.children.enumerated() {
        if isIdentified, let id = TestGenerator.identity(child.value) {
          visit(child.value, path: "\(path)[id: \(id.source)]!", depth: depth + 1)
        } else if !isIdentified {
          visit(child.value, path: "\(path)[\(index)]", depth: depth + 1)
        }
      }
    default:
      return
    }
  }

  /// Whether a value can hold a stack. NB: a collection is judged by its first element, as its
  /// elements share a type: a list of 100,000 plain rows is not walked.
  private static func holdsStack(_ value: Any, depth: Int) -> Bool {
    guard depth < 32 else { return false }
    if value is any StackValue { return true }
    if let shared = value as? any SharedValue {
      return holdsStack(shared.currentValue, depth: depth + 1)
    }
    if let presentation = value as? any PresentationValue {
      return presentation.presented.map { holdsStack($0, depth: depth + 1) } ?? false
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .struct, .class, .optional:
      return mirror.children.contains { holdsStack($0.value, depth: depth + 1) }
    case .collection:
      return mirror.children.first.map { holdsStack($0.value, depth: depth + 1) } ?? false
    default:
      return false
    }
  }
}
