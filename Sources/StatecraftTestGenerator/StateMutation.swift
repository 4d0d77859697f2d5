extension TestGenerator {
  /// The smallest mutations that turn `old` into `new`, as Swift statements on `root`
  /// (`$0` in a test store's assertion): empty when the two are the same.
  ///
  /// ```swift
  /// TestGenerator.mutations(from: before, to: after)
  /// // ["$0.todos[id: 3]?.isDone = true", "$0.undoStack.append([...])"]
  /// ```
  ///
  /// The two values are compared by reflection, field by field:
  /// - a struct's changed fields are mutated one by one (`$0.count = 2`);
  /// - an `IdentifiedArray`'s rows are addressed by id (`$0.todos[id: 3]?.isDone = true`), and
  ///   rows removed or added at the end become `remove(id:)` and `append(_:)`;
  /// - an array that grew or shrank at its end becomes `append`, `append(contentsOf:)` or
  ///   `removeLast`; one of the same length has its changed elements mutated by index;
  /// - a dictionary's changed keys are assigned (`nil` for a removed one);
  /// - an optional that stays non-nil is mutated through `?`;
  /// - a `Shared` value is mutated through its dynamic members (`$0.settings.theme = .dark`), or
  ///   through `wrappedValue` when it changed whole: the state keeps its reference;
  /// - anything else that changed (a leaf such as a number or a string, an enum, a set, a value
  ///   changed wholesale) is assigned whole, written by ``TestGenerator/swiftSource(_:)``.
  public static func mutations(from old: Any, to new: Any, root: String = "$0") -> [String] {
    var statements: [String] = []
    diff(old, new, path: root, into: &statements)
    return statements
  }

  // MARK: - Helpers

  static func diff(_ old: Any, _ new: Any, path: String, into statements: inout [String]) {
    let oldSource = swiftSource(old)
    let newSource = swiftSource(new)
    guard oldSource != newSource || typeName(of: old) != typeName(of: new) else { return }
    func assignWhole() { statements.append("\(path) = \(newSource)") }
    guard type(of: old) == type(of: new) else { return assignWhole() }
    if let old = old as? any SharedValue, let new = new as? any SharedValue {
      // NB: a shared value is mutated through it (`$0.list.todos[id: 1]?.isDone = true`, by its
      // dynamic members), never replaced: the state keeps its reference. Whole, it is assigned
      // through `wrappedValue`.
      var changes: [String] = []
      diff(old.currentValue, new.currentValue, path: path, into: &changes)
      statements += changes.map { change in
        change.hasPrefix("\(path) = ")
          ? "\(path).wrappedValue" + change.dropFirst(path.count) : change
      }
      return
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    switch oldMirror.displayStyle {
    case .struct:
      let oldChildren = Array(oldMirror.children)
      let newChildren = Array(newMirror.children)
      // NB: a property wrapper's storage (`_name`) can't be assigned from outside: assign the
      // value whole.
      guard oldChildren.count == newChildren.count, !oldChildren.isEmpty,
        oldChildren.allSatisfy({ $0.label.map { !$0.hasPrefix("_") } ?? false })
      else { return assignWhole() }
      for (oldChild, newChild) in zip(oldChildren, newChildren) {
        diff(oldChild.value, newChild.value, path: "\(path).\(oldChild.label!)", into: &statements)
      }
    case .optional:
      guard let oldValue = oldMirror.children.first?.value,
        let newValue = newMirror.children.first?.value,
        isMutableInPlace(oldValue)
      else { return assignWhole() }
      diff(oldValue, newValue, path: "\(path)?", into: &statements)
    case .collection:
      let oldElements = oldMirror.children.map(\.value)
      let newElements = newMirror.children.map(\.value)
      if typeName(of: old).hasPrefix("IdentifiedArray<"),
        diffIdentified(oldElements, newElements, path: path, into: &statements)
      {
        return
      }
      if !diffArray(oldElements, newElements, path: path, into: &statements) { assignWhole() }
    case .dictionary:
      guard let changes = diffDictionary(oldMirror, newMirror, path: path) else {
        return assignWhole()
      }
      statements += changes
    default:
      assignWhole()
    }
  }

  /// Whether source is an empty collection literal: appended alone, `append([])` is taken for
  /// another overload than the element's (it appends nothing), so it is appended as
  /// `append(contentsOf: [[]])`.
  private static func isEmptyCollection(_ source: String) -> Bool {
    source == "[]" || source == "[:]"
  }

  /// Whether a value has parts that a statement can mutate (a struct, a collection): otherwise
  /// it is assigned whole.
  private static func isMutableInPlace(_ value: Any) -> Bool {
    switch Mirror(reflecting: value).displayStyle {
    case .struct, .collection, .dictionary: true
    default: false
    }
  }

  /// Mutations of an `IdentifiedArray`: rows removed by id, rows changed in place by id, rows
  /// added at the end. False when the order of the rows kept changed (assign it whole).
  private static func diffIdentified(
    _ old: [Any], _ new: [Any], path: String, into statements: inout [String]
  ) -> Bool {
    let oldIDs = old.compactMap(identity)
    let newIDs = new.compactMap(identity)
    guard oldIDs.count == old.count, newIDs.count == new.count else { return false }
    let newIDSet = Set(newIDs.map(\.key))
    let oldIDSet = Set(oldIDs.map(\.key))
    let kept = oldIDs.filter { newIDSet.contains($0.key) }
    let added = newIDs.filter { !oldIDSet.contains($0.key) }
    // NB: the rows kept must be in the same order, and the new ones after them, or one new row
    // inserted among them.
    var inserted: (index: Int, element: Any)?
    if added.count == 1, let index = newIDs.firstIndex(where: { $0.key == added[0].key }),
      index < kept.count
    {
      inserted = (index, new[index])
    } else if kept.map(\.key) != Array(newIDs.prefix(kept.count)).map(\.key) {
      return false
    }
    if inserted != nil,
      kept.map(\.key) != newIDs.filter({ $0.key != added[0].key }).map(\.key)
    {
      return false
    }
    let removals = oldIDs.filter { !newIDSet.contains($0.key) }
    // NB: many removals read better as one assignment.
    if removals.count > 3 || (!added.isEmpty && kept.isEmpty && !old.isEmpty) { return false }
    var changes: [String] = []
    for id in removals {
      changes.append("\(path).remove(id: \(id.source))")
    }
    let oldByID = Dictionary(
      zip(oldIDs.map(\.key), old), uniquingKeysWith: { first, _ in first })
    for (id, element) in zip(newIDs, new) where oldIDSet.contains(id.key) {
      diff(oldByID[id.key]!, element, path: "\(path)[id: \(id.source)]?", into: &changes)
    }
    if let inserted {
      changes.append("\(path).insert(\(swiftSource(inserted.element)), at: \(inserted.index))")
      statements += changes
      return true
    }
    let appended = new.suffix(added.count)
    if appended.count == 1 {
      changes.append("\(path).append(\(swiftSource(appended.first!)))")
    } else if appended.count > 1 {
      changes.append("\(path).append(contentsOf: \(swiftSource(Array(appended))))")
    }
    statements += changes
    return true
  }

  /// A row's id, as a key and as source (`3`, `"a"`), when the row is `Identifiable`.
  private static func identity(_ value: Any) -> (key: AnyHashable, source: String)? {
    guard let identifiable = value as? any Identifiable else { return nil }
    func open<T: Identifiable>(_ value: T) -> (key: AnyHashable, source: String) {
      (AnyHashable(value.id), swiftSource(value.id))
    }
    return open(identifiable)
  }

  /// Mutations of an array: elements added or removed at its end, or elements of the same
  /// positions changed. False when another change was made (assign it whole).
  private static func diffArray(
    _ old: [Any], _ new: [Any], path: String, into statements: inout [String]
  ) -> Bool {
    let oldSources = old.map(swiftSource)
    let newSources = new.map(swiftSource)
    if newSources.count > oldSources.count,
      Array(newSources.prefix(oldSources.count)) == oldSources
    {
      let appended = new.suffix(new.count - old.count)
      if appended.count == 1, !isEmptyCollection(newSources.last!) {
        statements.append("\(path).append(\(newSources.last!))")
      } else {
        statements.append("\(path).append(contentsOf: \(swiftSource(Array(appended))))")
      }
      return true
    }
    if newSources.count < oldSources.count, !newSources.isEmpty {
      let removed = oldSources.count - newSources.count
      if Array(oldSources.prefix(newSources.count)) == newSources {
        statements.append(removed == 1 ? "\(path).removeLast()" : "\(path).removeLast(\(removed))")
        return true
      }
      if Array(oldSources.suffix(newSources.count)) == newSources {
        statements.append(
          removed == 1 ? "\(path).removeFirst()" : "\(path).removeFirst(\(removed))")
        return true
      }
      let index =
        newSources.indices.first { oldSources[$0] != newSources[$0] } ?? newSources.count
      if removed == 1, Array(oldSources[..<index] + oldSources[(index + 1)...]) == newSources {
        statements.append("\(path).remove(at: \(index))")
        return true
      }
      return false
    }
    guard oldSources.count == newSources.count, !newSources.isEmpty else { return false }
    let changed = zip(oldSources, newSources).enumerated().filter { $1.0 != $1.1 }.map(\.offset)
    // NB: when most elements changed, one assignment reads better than one line each.
    guard changed.count * 2 <= newSources.count || changed.count == 1 else { return false }
    for index in changed {
      diff(old[index], new[index], path: "\(path)[\(index)]", into: &statements)
    }
    return true
  }

  /// Mutations of a dictionary, one per changed key; nil when its keys can't be written.
  private static func diffDictionary(_ old: Mirror, _ new: Mirror, path: String) -> [String]? {
    func pairs(_ mirror: Mirror) -> [(key: String, value: Any)]? {
      var result: [(key: String, value: Any)] = []
      for child in mirror.children {
        let pair = Array(Mirror(reflecting: child.value).children)
        guard pair.count == 2 else { return nil }
        result.append((swiftSource(pair[0].value), pair[1].value))
      }
      return result.sorted { $0.key < $1.key }
    }
    guard let oldPairs = pairs(old), let newPairs = pairs(new) else { return nil }
    let oldByKey = Dictionary(oldPairs.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    let newKeys = Set(newPairs.map(\.key))
    var statements: [String] = []
    for (key, _) in oldPairs where !newKeys.contains(key) {
      statements.append("\(path)[\(key)] = nil")
    }
    for (key, value) in newPairs {
      if let oldValue = oldByKey[key] {
        if isMutableInPlace(oldValue) {
          diff(oldValue, value, path: "\(path)[\(key)]!", into: &statements)
        } else if swiftSource(oldValue) != swiftSource(value) {
          statements.append("\(path)[\(key)] = \(swiftSource(value))")
        }
      } else {
        statements.append("\(path)[\(key)] = \(swiftSource(value))")
      }
    }
    return statements
  }
}
