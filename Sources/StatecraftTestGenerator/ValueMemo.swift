// Owns what the test generator remembers of the values it read, from one step of a session to
// the next, by their bits (ValueBits.swift in Statecraft): a step's state shares almost all of
// its storage with the step before it, so a part that did not change is found in a table rather
// than read again. Also where the old state of a step holds a value, so that a statement can
// name it rather than write it out.
import Statecraft

/// What a generation learned of the values it read, by their type and bits: whether a value is
/// plain (nothing under it is read through a reference: no shared value, no class instance),
/// and its source. Two plain values with the same bits are the same value; a value remembered is
/// kept, so that its storage is not reused while its bits are in the table.
final class ValueMemo {
  /// The most values remembered in each table.
  static let maximumEntries = 200_000

  private var plain: [ValueBits: (value: Any, isPlain: Bool)] = [:]
  private var sources: [ValueBits: (value: Any, source: String)] = [:]

  /// Whether nothing under `value` is read through a reference: no shared value (read as it
  /// was at each step) and no class instance (read as it is now). A type whose custom mirror
  /// hides a class that is not copied on write is taken as plain.
  func isPlain(_ value: Any) -> Bool {
    let bits = ValueBits.of(value)
    if let bits, let hit = plain[bits] { return hit.isPlain }
    if Self.isLeaf(value) { return true }
    let result =
      !(value is any SharedValue) && !(type(of: value) is AnyClass)
      && Mirror(reflecting: value).children.allSatisfy { isPlain($0.value) }
    if let bits, plain.count < Self.maximumEntries { plain[bits] = (value, result) }
    return result
  }

  /// Notes that `value` is plain, found so without reading it whole (its elements are those of
  /// a plain collection, and a few more found plain).
  func notePlain(_ value: Any) {
    guard let bits = ValueBits.of(value), plain.count < Self.maximumEntries else { return }
    plain[bits] = (value, true)
  }

  /// When `old` and `new` are collections of one type and `new` is `old` with elements added at
  /// its end (each element of `old` has the same bits in `new`): the elements added. Read
  /// without a mirror, which may copy a collection whole.
  static func appended(from old: Any, to new: Any) -> [Any]? {
    guard let old = old as? any Collection else { return nil }
    func open<C: Collection>(_ old: C) -> [Any]? {
      guard let new = new as? C, new.count > old.count else { return nil }
      var newIndex = new.startIndex
      for element in old {
        guard let bits = ValueBits(element), bits == ValueBits(new[newIndex]) else { return nil }
        new.formIndex(after: &newIndex)
      }
      return new[newIndex...].map { $0 }
    }
    return open(old)
  }

  /// Whether `old` and `new` are the same plain value: the same type and the same bits.
  /// False says nothing: two equal values may have different bits.
  func same(_ old: Any, _ new: Any) -> Bool {
    guard let bits = ValueBits.of(old), bits == ValueBits.of(new) else { return false }
    return isPlain(old)
  }

  /// The source of `value`, rendered by `render` the first time a plain value with its bits is
  /// met.
  func source(of value: Any, _ render: () -> String) -> String {
    guard !Self.isLeaf(value), let bits = ValueBits.of(value), isPlain(value) else {
      return render()
    }
    if let hit = sources[bits] { return hit.source }
    let source = render()
    if sources.count < Self.maximumEntries { sources[bits] = (value, source) }
    return source
  }

  /// Whether two values are collections with different numbers of elements: then they differ,
  /// and neither is read (a collection's count costs nothing; its mirror may copy it).
  static func differInSize(_ old: Any, _ new: Any) -> Bool {
    guard let old = old as? any Collection, let new = new as? any Collection else { return false }
    return old.count != new.count
  }

  private static func isLeaf(_ value: Any) -> Bool {
    switch value {
    case is String, is Bool, is Double, is Float, is Character, is any BinaryInteger: true
    default: false
    }
  }
}

/// The values an old state holds under its stored properties (and theirs, a few levels down,
/// through shared values too): a statement names the property
/// (`$0.undoStack.append($0.list.todos)`) instead of writing out a value equal to it. Only
/// collections and structs with fields are named, and only plain ones
/// (``ValueMemo/isPlain(_:)``). A value is found by its bits first, then by its source among the
/// places of its type and size, so that the same session generates the same test whether its
/// states share their storage (a live recording) or not (one read from JSON).
final class ReferencePlaces {
  private struct Place {
    let label: String
    let path: String
    let value: Any
  }

  private let places: [Place]
  private let byBits: [ValueBits: Int]
  private let byType: [ObjectIdentifier: [Int]]
  private let memo: ValueMemo
  private let excluded: String?
  /// The root's properties named so far.
  private(set) var labelsRead: Set<String> = []

  /// The places of `children`, the old state's stored properties, from `root` (`$0`).
  convenience init(
    of children: [Mirror.Child], root: String, reading: SharedReading, memo: ValueMemo
  ) {
    var places: [Place] = []
    func visit(_ value: Any, label: String, path: String, depth: Int, isShared: Bool = false) {
      if let shared = value as? any SharedValue {
        // NB: a shared value's members are read through it (`$0.list.todos`); the value itself
        // is not the property's (a `Shared`), so it is not named.
        let current = reading.readingOld { shared.currentValue }
        return visit(current, label: label, path: path, depth: depth + 1, isShared: true)
      }
      let mirror = Mirror(reflecting: value)
      switch mirror.displayStyle {
      case .collection, .set, .dictionary:
        guard !isShared, !mirror.children.isEmpty, memo.isPlain(value) else { return }
        places.append(Place(label: label, path: path, value: value))
      case .struct:
        guard !mirror.children.isEmpty else { return }
        if !isShared, memo.isPlain(value) {
          places.append(Place(label: label, path: path, value: value))
        }
        guard depth < 3 else { return }
        for child in mirror.children {
          guard let name = child.label, !name.hasPrefix("_") else { continue }
          visit(child.value, label: label, path: "\(path).\(name)", depth: depth + 1)
        }
      default:
        return
      }
    }
    for child in children {
      guard let label = child.label else { continue }
      visit(child.value, label: label, path: "\(root).\(label)", depth: 0)
    }
    self.init(places: places, memo: memo, excluded: nil)
  }

  private init(places: [Place], memo: ValueMemo, excluded: String?) {
    self.places = places
    var byBits: [ValueBits: Int] = [:]
    var byType: [ObjectIdentifier: [Int]] = [:]
    for (index, place) in places.enumerated() {
      if let bits = ValueBits.of(place.value), byBits[bits] == nil { byBits[bits] = index }
      byType[ObjectIdentifier(type(of: place.value)), default: []].append(index)
    }
    self.byBits = byBits
    self.byType = byType
    self.memo = memo
    self.excluded = excluded
  }

  /// The same places but those under the root's property `label` (the one being changed).
  func excluding(_ label: String) -> ReferencePlaces {
    ReferencePlaces(places: places, memo: memo, excluded: label)
  }

  /// The path of a place that holds a value equal to `value`, whose source is `source`.
  func place(of value: Any, source: (Any) -> String) -> String? {
    guard memo.isPlain(value) else { return nil }
    var found: Place?
    if let bits = ValueBits.of(value), let index = byBits[bits] {
      found = places[index]
    } else {
      let candidates = (byType[ObjectIdentifier(type(of: value))] ?? []).map { places[$0] }
        .filter { $0.label != excluded && !ValueMemo.differInSize($0.value, value) }
      if !candidates.isEmpty {
        let wanted = source(value)
        found = candidates.first { candidate in
          memo.source(of: candidate.value) { TestGenerator.swiftSource(candidate.value) }
            == wanted
        }
      }
    }
    guard let found, found.label != excluded else { return nil }
    labelsRead.insert(found.label)
    return found.path
  }
}
