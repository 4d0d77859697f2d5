import CasePathsCore
import CustomDump
import Dependencies
import IssueReporting
import OrderedCollections

/// A navigation stack: the states of the screens pushed on a root, in order, each with a
/// ``StackElementID`` that is never reused.
///
/// ```swift
/// struct State: Equatable {
///   var path = StackState<Path.State>()
/// }
/// enum Action {
///   case path(StackActionOf<Path>)
///   case showDetail(Todo)
/// }
///
/// var body: some Reducer<State, Action> {
///   Reduce { state, action in
///     switch action {
///     case .showDetail(let todo): state.path.append(.detail(Detail.State(todo: todo)))
///     case .path: break
///     }
///     return .none
///   }
///   .forEach(\.path, action: \.path) { Path() }
/// }
/// ```
///
/// It is a collection of the element states (`append`, `removeLast`, `popLast`, `removeAll`,
/// subscripts by position), and reaches an element by id with `path[id:]`. An element added
/// any way gets a fresh id, and keeps it when the stack is reordered. Two stacks are equal when
/// their elements are: ids are not compared, so a test store's expected state needs no ids. It is
/// `Codable` when its elements are, as an array; decoded elements get fresh ids.
public struct StackState<Element> {
  @usableFromInline var elements: OrderedDictionary<StackElementID, Element> = [:]
  /// The greatest id this stack has held, or an id made when it was created: a push must use a
  /// greater one, so an id made before the stack (an old element's) is never taken again.
  var lastID: StackElementID

  /// An empty stack.
  public init() { lastID = DependencyValues._current.stackElementID.lastGiven }

  /// A stack of `elements`, each with a fresh id, the first at the bottom.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// The ids of the elements, bottom first.
  public var ids: OrderedSet<StackElementID> { elements.keys }

  /// The element with `id`, or nil when it is not on the stack.
  ///
  /// Setting nil removes that element (only it: ``pop(from:)`` removes the ones above too); its
  /// effects are cancelled. An element is added with a fresh id (`append`): setting one for an id
  /// that is not on the stack is reported and changes nothing, except in a test store's
  /// assertion closure, where it adds the element with that id, so that a test can say what the
  /// store pushed: `await store.send(.detailTapped) { $0.path[id: 0] = .detail(…) }`.
  public subscript(id id: StackElementID) -> Element? {
    get { elements[id] }
    _modify {
      guard let index = elements.index(forKey: id) else {
        var added: Element? = nil
        yield &added
        guard let added else { return }
        if TestAssertion.isRunning {
          elements[id] = added
          lastID = Swift.max(lastID, id)
        } else {
          reportIssue(Diagnostics.stackWriteAtMissingID(id: id, ids: Array(elements.keys)))
        }
        return
      }
      var element: Element? = elements.values[index]
      yield &element
      if let element {
        elements.values[index] = element
      } else {
        elements.remove(at: index)
      }
    }
  }

  /// Removes the element `id` and every element above it.
  public mutating func pop(from id: StackElementID) {
    guard let index = elements.index(forKey: id) else { return }
    elements.removeSubrange(index...)
  }

  /// Removes every element above the element `id`.
  public mutating func pop(to id: StackElementID) {
    guard let index = elements.index(forKey: id) else { return }
    elements.removeSubrange((index + 1)...)
  }

  /// Appends `element` with `id`: the id a view gave the screen it pushed, so that the screen
  /// keeps it.
  ///
  /// A reducer or a reactor that handles `.push(id:state:)` itself (with no `forEach`) appends
  /// with the id it received:
  ///
  /// ```swift
  /// case .path(.push(let id, let screen)): state.path.append(screen, id: id)
  /// ```
  ///
  /// Ids are never reused: an `id` that is not greater than every id this stack has held (a
  /// popped screen's, or one on the stack) is reported, and the element gets a fresh id.
  public mutating func append(_ element: Element, id: StackElementID) {
    guard id > lastID else {
      reportIssue(Diagnostics.stackAppendWithStaleID(id: id, lastID: lastID))
      append(element)
      return
    }
    elements[id] = element
    lastID = id
    DependencyValues._current.stackElementID.skip(through: id)
  }
}

extension StackState where Element: CasePathable {
  /// The element `id` in one case of an enum path, to read or change in place: nil when the
  /// element is not on the stack or is in another case.
  ///
  /// ```swift
  /// state.path[id: id, case: \.counter]?.count += 1   // the counter screen, if it is one
  /// state.path[id: id, case: \.counter] = nil         // removes that screen
  /// ```
  ///
  /// Changing the element in place keeps its id (its effects go on); setting nil removes the
  /// element, as `path[id: id] = nil` does. Changing the case of an element that is in another
  /// case is reported, and leaves the element as it was; an id that is not on the stack is
  /// ignored.
  public subscript<Case>(id id: StackElementID, case casePath: CaseKeyPath<Element, Case>)
    -> Case?
  {
    get { self[id: id].flatMap { $0[case: casePath] } }
    _modify {
      let current = self[id: id]
      var child = current.flatMap { $0[case: casePath] }
      let wasInCase = child != nil
      yield &child
      switch (current, wasInCase, child) {
      case (nil, _, _):
        break
      case (_?, true, let child?):
        self[id: id] = casePath(child)
      case (_?, true, nil):
        self[id: id] = nil
      case (let current?, false, _):
        reportIssue(Diagnostics.presentationCaseMismatch(current: current, asked: Case.self))
      }
    }
  }
}

extension StackState: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
  public var startIndex: Int { elements.values.startIndex }
  public var endIndex: Int { elements.values.endIndex }

  public subscript(position: Int) -> Element {
    get { elements.values[position] }
    _modify { yield &elements.values[position] }
  }

  /// Exchanges two elements, each with its id: an element's id (and so its running effects)
  /// stays with its state when the stack is reordered (`swapAt`, `reverse()`, `shuffle()`).
  public mutating func swapAt(_ i: Int, _ j: Int) {
    elements.swapAt(i, j)
  }

  /// Sorts the elements, each with its id.
  public mutating func sort(
    by areInIncreasingOrder: (Element, Element) throws -> Bool
  ) rethrows {
    try elements.sort { try areInIncreasingOrder($0.value, $1.value) }
  }

  /// Replaces the elements in `subrange` with `newElements`, each with a fresh id.
  public mutating func replaceSubrange(
    _ subrange: Range<Int>, with newElements: some Collection<Element>
  ) {
    elements.removeSubrange(subrange)
    for (offset, element) in zip(subrange.lowerBound..., newElements) {
      let id = StackElementID()
      elements.updateValue(element, forKey: id, insertingAt: offset)
      lastID = id
    }
  }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  /// Equal when the elements are, in order (the ids are not compared).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elements.values.elementsEqual(rhs.elements.values)
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(elements.count)
    for element in elements.values { hasher.combine(element) }
  }
}

extension StackState where Element: Comparable {
  /// Sorts the elements in increasing order, each with its id.
  public mutating func sort() {
    sort(by: <)
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Encodable where Element: Encodable {
  /// Encodes the elements as an array, bottom first (ids belong to this process and are not
  /// encoded).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Array(elements.values))
  }
}

extension StackState: Decodable where Element: Decodable {
  /// Decodes an array of elements, bottom first, each with a fresh id.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(try container.decode([Element].self))
  }
}

extension StackState: CustomDumpRepresentable {
  /// Dumps as the array of elements, so that a test store's diff shows the screens.
  public var customDumpValue: Any { Array(elements.values) }
}
