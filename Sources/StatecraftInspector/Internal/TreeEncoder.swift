// Owns encoding a state straight to the tree the page is sent (`JSONValue`), through the
// state's own `Encodable` conformance, with no JSON text in between; and remembering what it
// encoded by the value's bits (ValueBits.swift), so that the next step's state costs only what
// changed: a list that did not change is the same buffer, a todo that did not change the same id
// and the same string storage. The encoder notes each class instance and shared value it meets
// (read through a reference, they can differ under the same bits), and remembers nothing above
// one. What it remembers it keeps (so that the storage can't be reused under the same bits), and
// no longer than the encoding after the one that met it, or, for a list, while it is one of the
// last few lists met: a list that shares elements with one of those (elements added, removed or
// changed) takes them from that list's tree, compared bit by bit, and reads only the others.
import Foundation
import IdentifiedCollections
import Statecraft

/// Encodes `Encodable` values to ``JSONValue`` as `JSONEncoder` with sorted keys writes them,
/// and reuses the trees of the values it met in the last encoding: a state whose undo stack
/// holds a hundred copies of a long list costs, a step later, the one list that changed.
///
/// NB: `@unchecked Sendable`: one encoding at a time. The session runs them one after another,
/// on the main actor or off it (``InspectorSession``'s `encodeTree`), and a test owns its own.
final class TreeEncoder: @unchecked Sendable {
  private struct Entry {
    /// The value, kept so that its storage lives as long as the entry.
    let value: Any
    let tree: JSONValue
  }

  /// A list encoded recently, with its tree, so that a list that shares most of its elements
  /// with it costs only the elements it does not share.
  private final class KnownList {
    /// The list, kept so that its storage lives as long as the entry.
    let value: Any
    let trees: JSONList

    init(value: Any, trees: JSONList) {
      self.value = value
      self.trees = trees
    }
  }

  /// Where a list and a known one share their elements: the new list starts with `prefix` of
  /// the known list's elements from `offset`, and ends with its last `suffix`.
  private struct SharedElements {
    var offset = 0
    var prefix = 0
    var suffix = 0
    var count: Int { prefix + suffix }
  }

  /// How a type is encoded, found once per type.
  private enum Kind {
    case string, bool, int, double, float, integer, url, data, decimal
    /// A class instance or a shared value: read through a reference.
    case reference
    /// An array: its elements are encoded here, without a container per element.
    case elements
    /// Anything else: by its conformance, or found by its bits.
    case value
  }

  /// The most values remembered.
  static let maximumEntries = 500_000

  /// The values the encoding under way met, by their bits.
  private var entries: [ValueBits: Entry] = [:]
  /// The values the encoding before met: forgotten when the next encoding starts, so that no
  /// value is kept longer than that (an undo stack's list can be a megabyte; a long session's
  /// views met thousands of them).
  private var previousEntries: [ValueBits: Entry] = [:]
  private var kinds: [ObjectIdentifier: Kind] = [:]
  /// The lists encoded last, by the list's type, the most recent last; a list that grew takes
  /// the place of the list it grew from.
  private var knownLists: [ObjectIdentifier: [KnownList]] = [:]
  /// How many lists the encoder read element by element (``trees(of:codingPath:)``).
  private var listsRead = 0
  /// The types whose encoding read a list: a list is one of them, and so is a value that holds
  /// one. A list of them is never a known list: it would hold every list under it (an undo
  /// stack holds a whole list per step, and four undo stacks kept four states at 20,000
  /// todos), and the lists under it are known lists of their own.
  private var typesHoldingLists: Set<ObjectIdentifier> = []
  private var lastType: ObjectIdentifier?
  private var lastKind = Kind.value
  /// How many class instances and shared values the encoding has met: a value under one of them
  /// is not remembered.
  private var references = 0
  /// While encoding off the main actor: the shared values that may be read (as they were, from
  /// the snapshot). Any other reference stops the encoding (see ``treeOffMainActor(of:reading:)``).
  private var readableReferences: SharedSnapshot??

  /// A class instance, or a shared value the snapshot doesn't hold, met off the main actor.
  private struct ReadThroughReference: Error {}

  /// How many values were encoded by their own conformance rather than found (for the tests
  /// of what a step costs).
  private(set) var encodedCount = 0
  /// How many values were read, found in the table or encoded: what an encoding costs (for the
  /// tests of what a step costs).
  private(set) var valuesRead = 0

  /// The lists of one type remembered; the smallest list remembered.
  static let knownListsPerType = 4
  static let smallestKnownList = 8
  /// How many elements removed from a list's start are still found: an undo stack at its limit
  /// drops its first list as it gains one.
  static let largestDropFound = 4

  /// `value` as a tree: through its `Encodable` conformance when it has one that encodes,
  /// otherwise read with `Mirror` (see ``InspectedValue``), its encodable parts through this
  /// encoder.
  func tree(of value: Any) -> JSONValue {
    startEncoding()
    if let encodable = value as? any Encodable,
      let tree = try? box(encodable, codingPath: { [] })
    {
      return tree
    }
    return tree(of: InspectedValue.mirrored(value))
  }

  /// `value` as a tree, as ``tree(of:)`` makes it, for an encoding off the main actor, where
  /// the app may change what a reference leads to meanwhile: nil when `value` is not
  /// `Encodable`, or holds a class instance, or a shared value that `shared` doesn't hold. Such
  /// a state is encoded on the main actor.
  func treeOffMainActor(of value: Any, reading shared: SharedSnapshot?) -> JSONValue? {
    guard let encodable = value as? any Encodable else { return nil }
    startEncoding()
    readableReferences = .some(shared)
    defer { readableReferences = nil }
    return shared.whileReading { try? box(encodable, codingPath: { [] }) }
  }

  /// How many values the encoder remembers (for the tests of what a session keeps).
  var rememberedValueCount: Int { entries.count + previousEntries.count }

  /// Forgets the values the last encodings met, keeping the lists it knows
  /// (``knownListsPerType`` per type): what it remembered held the states it encoded, which
  /// share nothing with the app's once the app has gone on. A session calls it once a detail of
  /// the store's own states is encoded: the next detail, a follow a burst later, finds the
  /// lists it shares with these among the known ones, element by element.
  func forgetValues() {
    entries.removeAll(keepingCapacity: true)
    previousEntries.removeAll(keepingCapacity: true)
  }

  /// The table of two encodings ago is emptied and reused, keeping its capacity: a new table
  /// would grow, and copy its entries, a dozen times per encoding.
  private func startEncoding() {
    swap(&entries, &previousEntries)
    entries.removeAll(keepingCapacity: true)
  }

  private func tree(of value: InspectedValue) -> JSONValue {
    switch value {
    case .null: .null
    case .bool(let flag): .bool(flag)
    case .number(let number): Self.number(number)
    case .integer(let integer): .number(String(integer))
    case .string(let text): .string(text)
    case .array(let values): .array(JSONList(values.map { tree(of: $0) }))
    case .object(let fields): .object(fields.map { ($0.0, tree(of: $0.1)) })
    case .encoded(let encodable): (try? box(encodable, codingPath: { [] })) ?? .null
    }
  }

  fileprivate func box<T: Encodable>(_ value: T, codingPath: () -> [any CodingKey]) throws
    -> JSONValue
  {
    switch kind(of: value) {
    case .string: return .string(value as! String)
    case .bool: return .bool(value as! Bool)
    case .int: return .number(String(value as! Int))
    case .double: return Self.number(value as! Double)
    case .float: return Self.number(value as! Float)
    case .integer: return .number(String(describing: value))
    case .url: return .string((value as! URL).absoluteString)
    case .data: return .string((value as! Data).base64EncodedString())
    case .decimal: return .number((value as! Decimal).description)
    case .reference:
      if let readable = readableReferences {
        guard let holder = value as? any SharedReferenceHolder,
          readable?.holds(holder.anyReference) == true
        else { throw ReadThroughReference() }
      }
      references += 1
      return try fresh(value, codingPath: codingPath())
    case .elements, .value:
      valuesRead += 1
      guard let key = ValueBits(value) else { return try fresh(value, codingPath: codingPath()) }
      if let hit = entries[key] { return hit.tree }
      if let hit = previousEntries[key] {
        entries[key] = hit
        return hit.tree
      }
      let before = references
      let tree = try fresh(value, codingPath: codingPath())
      if references == before, entries.count < Self.maximumEntries {
        entries[key] = Entry(value: value, tree: tree)
      }
      return tree
    }
  }

  private func kind<T>(of value: T) -> Kind {
    let type = type(of: value)
    let id = ObjectIdentifier(type)
    if id == lastType { return lastKind }
    let kind =
      kinds[id]
      ?? {
        let kind: Kind =
          switch value {
          case is String: .string
          case is Bool: .bool
          case is Int: .int
          case is Double: .double
          case is Float: .float
          case is any BinaryInteger: .integer
          case is URL: .url
          case is Data: .data
          case is Decimal: .decimal
          case is any SharedReferenceHolder: .reference
          case _ where type is AnyObject.Type: .reference
          case is any EncodableElements: .elements
          default: .value
          }
        kinds[id] = kind
        return kind
      }()
    lastType = id
    lastKind = kind
    return kind
  }

  private func fresh<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue {
    encodedCount += 1
    let listsBefore = listsRead
    defer { if listsRead != listsBefore { typesHoldingLists.insert(ObjectIdentifier(T.self)) } }
    if kind(of: value) == .elements, let elements = value as? any EncodableElements {
      return .array(try elements.trees(with: self, codingPath: codingPath))
    }
    let node = Node()
    try value.encode(to: NodeEncoder(tree: self, node: node, codingPath: codingPath))
    return node.resolved()
  }

  /// The trees of `elements`, as an unkeyed container of them would hold them. The elements a
  /// list shares with one of the lists encoded last (the same bits: the same values) are taken
  /// from that list's tree.
  fileprivate func trees<C: RandomAccessCollection>(of elements: C, codingPath: [any CodingKey])
    throws -> JSONList where C.Element: Encodable, C.Index == Int
  {
    let before = references
    listsRead += 1
    let type = ObjectIdentifier(C.self)
    var known: (list: KnownList, shared: SharedElements)?
    if elements.count >= Self.smallestKnownList {
      for list in (knownLists[type] ?? []).reversed() {
        guard let shared = Self.sharedElements(list.value as! C, elements),
          shared.count > known?.shared.count ?? 0
        else { continue }
        known = (list, shared)
        if shared.count == elements.count { break }
      }
    }
    let shared = known?.shared ?? SharedElements()
    // NB: the prefix shares the known list's chunks (see ChunkedArray.swift): the next version
    // of a list that grew costs the chunk it changed, not a node per element.
    var trees =
      known.map { JSONList(shared.prefix, of: $0.list.trees, from: shared.offset) } ?? JSONList()
    for index in elements.startIndex + shared.prefix..<elements.endIndex - shared.suffix {
      trees.append(
        try box(elements[index], codingPath: { codingPath + [IndexKey(index: index)] }))
    }
    if let known { trees.append(contentsOf: known.list.trees.suffix(shared.suffix)) }
    if references == before, elements.count >= Self.smallestKnownList,
      !typesHoldingLists.contains(ObjectIdentifier(C.Element.self))
    {
      remember(KnownList(value: elements, trees: trees), type: type, known: known)
    }
    return trees
  }

  /// Remembers a list just encoded, unless a known list holds all of its elements. A list that
  /// holds all of a known list's elements (the next version of a list that grows, as an undo
  /// stack's lists do) takes that list's place, so that a list's versions take one place.
  private func remember(
    _ list: KnownList, type: ObjectIdentifier, known: (list: KnownList, shared: SharedElements)?
  ) {
    var lists = knownLists[type] ?? []
    if let known {
      guard known.shared.count < list.trees.count else { return }
      if known.shared.offset == 0, known.shared.count == known.list.trees.count,
        let index = lists.firstIndex(where: { $0 === known.list })
      {
        lists.remove(at: index)
      }
    }
    if lists.count == Self.knownListsPerType { lists.removeFirst() }
    lists.append(list)
    knownLists[type] = lists
  }

  /// The elements `new` shares with `old`, compared by their bits (`old` was encoded with no
  /// class instance or shared value under it, and is kept: an element with the same bits is the
  /// same value). Nil when either has no contiguous storage.
  private static func sharedElements<C: RandomAccessCollection>(_ old: C, _ new: C)
    -> SharedElements?
  {
    let size = MemoryLayout<C.Element>.size
    let stride = MemoryLayout<C.Element>.stride
    return old.withContiguousStorageIfAvailable { old in
      new.withContiguousStorageIfAvailable { new -> SharedElements in
        guard let oldBase = old.baseAddress.map(UnsafeRawPointer.init),
          let newBase = new.baseAddress.map(UnsafeRawPointer.init)
        else { return SharedElements() }
        // NB: element by element over the type's size: the padding between elements of a copy
        // is not copied.
        func same(_ oldIndex: Int, _ newIndex: Int) -> Bool {
          memcmp(oldBase + oldIndex * stride, newBase + newIndex * stride, size) == 0
        }
        var shared = SharedElements()
        if oldBase == newBase {
          shared.prefix = min(old.count, new.count)
        } else if let offset = (0...min(Self.largestDropFound, old.count - 1)).first(where: {
          same($0, 0)
        }) {
          shared.offset = offset
          while shared.prefix < min(old.count - offset, new.count),
            same(offset + shared.prefix, shared.prefix)
          {
            shared.prefix += 1
          }
        }
        let room = min(new.count - shared.prefix, old.count - shared.offset - shared.prefix)
        while shared.suffix < room,
          same(old.count - 1 - shared.suffix, new.count - 1 - shared.suffix)
        {
          shared.suffix += 1
        }
        return shared
      }
    } ?? nil
  }

  static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: F
  ) -> JSONValue {
    // NB: JSON has no infinities or NaN; the page shows them as strings.
    guard value.isFinite else { return .string(value.description) }
    if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
    return .number(value.description)
  }
}

/// A container being filled: a value, an object's fields or an array's elements. A nested
/// container is a node of its own, read when its parent is.
private final class Node {
  enum Slot {
    case value(JSONValue)
    case node(Node)

    var resolved: JSONValue {
      switch self {
      case .value(let value): value
      case .node(let node): node.resolved()
      }
    }
  }

  enum Kind { case empty, single, keyed, unkeyed }
  var kind = Kind.empty
  var single = JSONValue.null
  var fields: [(key: String, slot: Slot)] = []
  var elements: [Slot] = []

  func resolved() -> JSONValue {
    switch kind {
    case .empty: return .object([])
    case .single: return single
    case .unkeyed: return .array(JSONList(elements.lazy.map(\.resolved)))
    case .keyed:
      // NB: sorted as `JSONEncoder`'s `.sortedKeys` writes them; a key encoded twice keeps its
      // last value.
      let sorted = self.fields.enumerated().sorted {
        $0.element.key < $1.element.key
          || ($0.element.key == $1.element.key && $0.offset < $1.offset)
      }
      var fields: [(key: String, value: JSONValue)] = []
      fields.reserveCapacity(sorted.count)
      for (_, field) in sorted {
        if fields.last?.key == field.key {
          fields[fields.count - 1].value = field.slot.resolved
        } else {
          fields.append((field.key, field.slot.resolved))
        }
      }
      return .object(fields)
    }
  }
}

private struct NodeEncoder: Encoder {
  let tree: TreeEncoder
  let node: Node
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.kind = .keyed
    return KeyedEncodingContainer(
      KeyedNodeContainer<Key>(tree: tree, node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.kind = .unkeyed
    return UnkeyedNodeContainer(tree: tree, node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleNodeContainer(tree: tree, node: node, codingPath: codingPath)
  }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let tree: TreeEncoder
  let node: Node
  let codingPath: [any CodingKey]

  private func set(_ value: JSONValue, _ key: Key) {
    node.fields.append((key.stringValue, .value(value)))
  }

  mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(String(value)), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(TreeEncoder.number(value), key)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(try tree.box(value, codingPath: { codingPath + [key] }), key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = Node()
    child.kind = .keyed
    node.fields.append((key.stringValue, .node(child)))
    return KeyedEncodingContainer(
      KeyedNodeContainer<NestedKey>(tree: tree, node: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = Node()
    child.kind = .unkeyed
    node.fields.append((key.stringValue, .node(child)))
    return UnkeyedNodeContainer(tree: tree, node: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(named: "super")
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: key.stringValue)
  }

  private func superEncoder(named name: String) -> any Encoder {
    let child = Node()
    node.fields.append((name, .node(child)))
    return NodeEncoder(tree: tree, node: child, codingPath: codingPath)
  }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
  let tree: TreeEncoder
  let node: Node
  let codingPath: [any CodingKey]
  var count: Int { node.elements.count }

  mutating func encodeNil() throws { node.elements.append(.value(.null)) }
  mutating func encode(_ value: Bool) throws { node.elements.append(.value(.bool(value))) }
  mutating func encode(_ value: String) throws { node.elements.append(.value(.string(value))) }
  mutating func encode(_ value: Int) throws {
    node.elements.append(.value(.number(String(value))))
  }
  mutating func encode(_ value: Double) throws {
    node.elements.append(.value(TreeEncoder.number(value)))
  }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = count
    node.elements.append(
      .value(try tree.box(value, codingPath: { codingPath + [IndexKey(index: index)] })))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = Node()
    child.kind = .keyed
    let path = codingPath + [IndexKey(index: count)]
    node.elements.append(.node(child))
    return KeyedEncodingContainer(
      KeyedNodeContainer<NestedKey>(tree: tree, node: child, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = Node()
    child.kind = .unkeyed
    let path = codingPath + [IndexKey(index: count)]
    node.elements.append(.node(child))
    return UnkeyedNodeContainer(tree: tree, node: child, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let child = Node()
    let path = codingPath + [IndexKey(index: count)]
    node.elements.append(.node(child))
    return NodeEncoder(tree: tree, node: child, codingPath: path)
  }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
  let tree: TreeEncoder
  let node: Node
  let codingPath: [any CodingKey]

  private func set(_ value: JSONValue) {
    node.kind = .single
    node.single = value
  }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Int) throws { set(.number(String(value))) }
  mutating func encode(_ value: Double) throws { set(TreeEncoder.number(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    set(try tree.box(value, codingPath: { codingPath }))
  }
}

private struct IndexKey: CodingKey {
  let index: Int
  var stringValue: String { String(index) }
  var intValue: Int? { index }
  init(index: Int) { self.index = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.index = intValue }
}

/// An array whose elements the encoder encodes itself, without a container per element.
private protocol EncodableElements {
  func trees(with encoder: TreeEncoder, codingPath: [any CodingKey]) throws -> JSONList
}

extension Array: EncodableElements where Element: Encodable {
  fileprivate func trees(with encoder: TreeEncoder, codingPath: [any CodingKey]) throws
    -> JSONList
  {
    try encoder.trees(of: self, codingPath: codingPath)
  }
}

extension IdentifiedArray: EncodableElements where Element: Encodable {
  // NB: as its `Encodable` writes it, without the copy of its elements that conformance makes.
  fileprivate func trees(with encoder: TreeEncoder, codingPath: [any CodingKey]) throws
    -> JSONList
  {
    try encoder.trees(of: elements, codingPath: codingPath)
  }
}

extension ContiguousArray: EncodableElements where Element: Encodable {
  fileprivate func trees(with encoder: TreeEncoder, codingPath: [any CodingKey]) throws
    -> JSONList
  {
    try encoder.trees(of: self, codingPath: codingPath)
  }
}
