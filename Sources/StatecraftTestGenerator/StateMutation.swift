import Statecraft

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
  /// - a `StackState` is compared by its elements, as an array is (`$0.path.append(...)`,
  ///   `$0.path.removeLast()`, `$0.path[0].title = "Tea"`): its ids are not compared, as a test
  ///   store doesn't compare them;
  /// - a `@Presents` property is compared by the value it presents: presented or dismissed, it
  ///   is assigned (`$0.destination = nil`); changed while presented, it is mutated through `?`
  ///   (`$0.destination?.count = 2`), which keeps the presentation;
  /// - a dictionary's changed keys are assigned (`nil` for a removed one);
  /// - an optional that stays non-nil is mutated through `?`;
  /// - a `Shared` value is mutated through its dynamic members (`$0.settings.theme = .dark`), or
  ///   through `wrappedValue` when it changed whole: the state keeps its reference;
  /// - anything else that changed (a leaf such as a number or a string, an enum, a set, a value
  ///   changed wholesale) is assigned whole, written by ``TestGenerator/swiftSource(_:)``;
  /// - an array that dropped its oldest elements and gained as many at its end (a bounded undo
  ///   stack) becomes `removeFirst` and `append`;
  /// - a value appended or assigned that `old` holds, equal, under another stored property (an
  ///   undo stack's new entry is the list as it was) names that property instead of writing the
  ///   value out: `$0.undoStack.append($0.list.todos)`. The statements that read `old` come
  ///   first, before any statement changes what they read.
  ///
  /// What did not change costs next to nothing: two values of one type with the same bits are
  /// the same value (unless a shared value or a class instance is under them), so a step's
  /// state, which shares its storage with the step before, is compared in proportion to what
  /// changed, and a session of a thousand steps in proportion to its steps.
  public static func mutations(from old: Any, to new: Any, root: String = "$0") -> [String] {
    MutationWriter(reading: SharedReading(old: nil, new: nil)).mutations(
      from: old, to: new, root: root)
  }

  // MARK: - Helpers

  /// A row's id, as a key and as source (`3`, `"a"`), when the row is `Identifiable`.
  static func identity(_ value: Any) -> (key: AnyHashable, source: String)? {
    guard let identifiable = value as? any Identifiable else { return nil }
    func open<T: Identifiable>(_ value: T) -> (key: AnyHashable, source: String) {
      (AnyHashable(value.id), swiftSource(value.id))
    }
    return open(identifiable)
  }
}

/// The shared values a state read at two steps holds: a recording made in this process keeps,
/// beside each stored state, the values its shared references had at that step; the two sides
/// of a change are read each with its own.
struct SharedReading {
  var old: SharedSnapshot?
  var new: SharedSnapshot?

  /// `body`, reading shared values as they were at the older step.
  func readingOld<R>(_ body: () -> R) -> R { old.whileReading(body) }

  /// `body`, reading shared values as they were at the newer step.
  func readingNew<R>(_ body: () -> R) -> R { new.whileReading(body) }
}

/// Writes the smallest mutations between two values (see
/// ``TestGenerator/mutations(from:to:root:)``), reading each side's shared values as they were.
///
/// A generation reads hundreds of steps whose states share almost all of their storage, so the
/// writer compares values by their bits first (``ValueMemo``): a part of the state that did not
/// change costs a hash lookup, not a reading of the whole part, and the steps of a session cost
/// what changed at each.
struct MutationWriter {
  let reading: SharedReading
  let memo: ValueMemo

  /// The mutations that make `old` into `new`, on `root`.
  ///
  /// A value added somewhere that the old state holds elsewhere, under a stored property of its
  /// own (an undo stack's new entry is the list as it was), is written as that property
  /// (`$0.undoStack.append($0.list.todos)`), read before anything else changes: the statements
  /// that read the old state come first.
  func mutations(from old: Any, to new: Any, root: String) -> [String] {
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    guard oldMirror.displayStyle == .struct, type(of: old) == type(of: new),
      !(old is any SharedValue), !(old is any StackValue), !(old is any PresentationValue),
      !memo.same(old, new)
    else {
      var statements: [String] = []
      diff(old, new, path: root, into: &statements)
      return statements
    }
    let oldChildren = Array(oldMirror.children)
    let newChildren = Array(newMirror.children)
    guard oldChildren.count == newChildren.count,
      oldChildren.allSatisfy({ $0.label.map { !$0.hasPrefix("_") } ?? false })
    else {
      var statements: [String] = []
      diff(old, new, path: root, into: &statements)
      return statements
    }
    // NB: one group of statements per stored property; the groups that read the old state go
    // first, and a group may read only properties that no group before it changed.
    let places = ReferencePlaces(of: oldChildren, root: root, reading: reading, memo: memo)
    var readingGroups: [(label: String, statements: [String], reads: Set<String>)] = []
    var otherGroups: [[String]] = []
    for (oldChild, newChild) in zip(oldChildren, newChildren) {
      let label = oldChild.label!
      var writer = self
      writer.places = places.excluding(label)
      var statements: [String] = []
      writer.diff(oldChild.value, newChild.value, path: "\(root).\(label)", into: &statements)
      guard !statements.isEmpty else { continue }
      let reads = writer.places?.labelsRead ?? []
      if reads.isEmpty {
        otherGroups.append(statements)
      } else {
        readingGroups.append((label, statements, reads))
      }
    }
    var statements: [String] = []
    var changed: Set<String> = []
    for group in readingGroups {
      if group.reads.isDisjoint(with: changed) {
        statements += group.statements
      } else {
        // NB: a property another group changed first: its value is written out.
        let index = oldChildren.firstIndex { $0.label == group.label }!
        diff(
          oldChildren[index].value, newChildren[index].value, path: "\(root).\(group.label)",
          into: &statements)
      }
      changed.insert(group.label)
    }
    for group in otherGroups { statements += group }
    return statements
  }

  /// Where the old state holds values that a statement may name instead of writing them out.
  private var places: ReferencePlaces?

  init(reading: SharedReading, memo: ValueMemo = ValueMemo()) {
    self.reading = reading
    self.memo = memo
  }

  private func oldSource(_ value: Any) -> String {
    memo.source(of: value) { reading.readingOld { TestGenerator.swiftSource(value) } }
  }

  private func newSource(_ value: Any) -> String {
    memo.source(of: value) { reading.readingNew { TestGenerator.swiftSource(value) } }
  }

  /// `value` of the new state as a statement writes it: the old state's property that holds
  /// the same value, or its source.
  private func newValue(_ value: Any) -> String {
    places?.place(of: value, source: newSource) ?? newSource(value)
  }

  /// Whether an element of the old state equals one of the new state: the same bits, or else
  /// (unless they are collections of different sizes) the same source.
  private func equal(_ old: Any, _ new: Any) -> Bool {
    if memo.same(old, new) { return true }
    if ValueMemo.differInSize(old, new) { return false }
    return oldSource(old) == newSource(new)
  }

  private func typeName(of value: Any) -> String { TestGenerator.typeName(of: value) }

  func diff(_ old: Any, _ new: Any, path: String, into statements: inout [String]) {
    if memo.same(old, new) { return }
    func assignWhole() {
      if typeName(of: old) == typeName(of: new), equal(old, new) { return }
      statements.append("\(path) = \(newValue(new))")
    }
    guard type(of: old) == type(of: new) else { return assignWhole() }
    if let old = old as? any SharedValue, let new = new as? any SharedValue {
      // NB: a shared value is mutated through it (`$0.list.todos[id: 1]?.isDone = true`, by its
      // dynamic members), never replaced: the state keeps its reference. Whole, it is assigned
      // through `wrappedValue`.
      var changes: [String] = []
      diff(
        reading.readingOld { old.currentValue }, reading.readingNew { new.currentValue },
        path: path, into: &changes)
      statements += changes.map { change in
        change.hasPrefix("\(path) = ")
          ? "\(path).wrappedValue" + change.dropFirst(path.count) : change
      }
      return
    }
    if let old = old as? any StackValue, let new = new as? any StackValue {
      // NB: a stack changes as an array of its elements does; the ids a store gives its
      // elements are not compared.
      if !diffArray(old.stackElements, new.stackElements, path: path, into: &statements) {
        assignWhole()
      }
      return
    }
    if let old = old as? any PresentationValue, let new = new as? any PresentationValue {
      // NB: a presentation that is not a `@Presents` property is reached by its wrapped value.
      diffPresented(old.presented, new.presented, path: "\(path).wrappedValue", into: &statements)
      return
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    switch oldMirror.displayStyle {
    case .struct:
      let oldChildren = Array(oldMirror.children)
      let newChildren = Array(newMirror.children)
      // NB: a property wrapper's storage (`_name`) can't be assigned from outside: a
      // `@Presents` property is mutated through the value it presents, and a struct with
      // another wrapper is assigned whole.
      guard oldChildren.count == newChildren.count, !oldChildren.isEmpty,
        oldChildren.allSatisfy({ child in
          guard let label = child.label else { return false }
          return !label.hasPrefix("_") || child.value is any PresentationValue
        })
      else { return assignWhole() }
      for (oldChild, newChild) in zip(oldChildren, newChildren) {
        let label = oldChild.label!
        if label.hasPrefix("_"), let oldValue = oldChild.value as? any PresentationValue,
          let newValue = newChild.value as? any PresentationValue
        {
          diffPresented(
            oldValue.presented, newValue.presented, path: "\(path).\(label.dropFirst())",
            into: &statements)
        } else {
          diff(oldChild.value, newChild.value, path: "\(path).\(label)", into: &statements)
        }
      }
    case .optional:
      guard let oldValue = oldMirror.children.first?.value,
        let newValue = newMirror.children.first?.value,
        isMutableInPlace(oldValue)
      else { return assignWhole() }
      diff(oldValue, newValue, path: "\(path)?", into: &statements)
    case .collection:
      // NB: elements added at the end of a plain collection, the others unchanged (the same
      // bits): no other element is read.
      if let appended = ValueMemo.appended(from: old, to: new), memo.isPlain(old),
        appended.allSatisfy(memo.isPlain),
        !typeName(of: old).hasPrefix("IdentifiedArray<")
          || appended.allSatisfy({ TestGenerator.identity($0) != nil })
      {
        memo.notePlain(new)
        appendStatement(appended, path: path, into: &statements)
        return
      }
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

  /// Mutations of a presented value (`nil` when nothing is presented) at `path`, the optional
  /// it presents: a presentation or a dismissal is assigned, a change while presented is made
  /// through `?`, which keeps the presentation's identity.
  private func diffPresented(
    _ old: Any?, _ new: Any?, path: String, into statements: inout [String]
  ) {
    switch (old, new) {
    case (nil, nil):
      return
    case (let old?, let new?) where isMutableInPlace(old) && type(of: old) == type(of: new):
      diff(old, new, path: "\(path)?", into: &statements)
    case (_, let new?):
      let source = newSource(new)
      if let old, oldSource(old) == source { return }
      statements.append("\(path) = \(source)")
    case (_?, nil):
      statements.append("\(path) = nil")
    }
  }

  /// Whether source is an empty collection literal: appended alone, `append([])` is taken for
  /// another overload than the element's (it appends nothing), so it is appended as
  /// `append(contentsOf: [[]])`.
  private func isEmptyCollection(_ source: String) -> Bool {
    source == "[]" || source == "[:]"
  }

  /// Whether a value has parts that a statement can mutate (a struct, a collection): otherwise
  /// it is assigned whole.
  private func isMutableInPlace(_ value: Any) -> Bool {
    switch Mirror(reflecting: value).displayStyle {
    case .struct, .collection, .dictionary: true
    default: false
    }
  }

  /// Mutations of an `IdentifiedArray`: rows removed by id, rows changed in place by id, rows
  /// added at the end. False when the order of the rows kept changed (assign it whole).
  private func diffIdentified(
    _ old: [Any], _ new: [Any], path: String, into statements: inout [String]
  ) -> Bool {
    let oldIDs = old.compactMap(TestGenerator.identity)
    let newIDs = new.compactMap(TestGenerator.identity)
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
      changes.append("\(path).insert(\(newSource(inserted.element)), at: \(inserted.index))")
      statements += changes
      return true
    }
    appendStatement(Array(new.suffix(added.count)), path: path, into: &changes)
    statements += changes
    return true
  }

  /// `path.append(...)` of `appended`: nothing when it is empty; one element appended alone
  /// (unless it is an empty collection literal, which `append` takes for an empty sequence).
  private func appendStatement(_ appended: [Any], path: String, into statements: inout [String]) {
    guard let first = appended.first else { return }
    if appended.count == 1 {
      let value = newValue(first)
      if !isEmptyCollection(value) {
        statements.append("\(path).append(\(value))")
        return
      }
    }
    statements.append("\(path).append(contentsOf: \(newSource(appended)))")
  }

  /// Mutations of an array: elements added or removed at its end, the oldest dropped from
  /// its front and as many added at its end (a bounded history), or elements of the same
  /// positions changed. False when another change was made (assign it whole).
  private func diffArray(
    _ old: [Any], _ new: [Any], path: String, into statements: inout [String]
  ) -> Bool {
    func kept(from offset: Int, count: Int) -> Bool {
      (0..<count).allSatisfy { equal(old[$0 + offset], new[$0]) }
    }
    if new.count > old.count, kept(from: 0, count: old.count) {
      appendStatement(Array(new[old.count...]), path: path, into: &statements)
      return true
    }
    if new.count < old.count, !new.isEmpty {
      let removed = old.count - new.count
      if kept(from: 0, count: new.count) {
        statements.append(removed == 1 ? "\(path).removeLast()" : "\(path).removeLast(\(removed))")
        return true
      }
      if kept(from: removed, count: new.count) {
        statements.append(
          removed == 1 ? "\(path).removeFirst()" : "\(path).removeFirst(\(removed))")
        return true
      }
      let index = new.indices.first { !equal(old[$0], new[$0]) } ?? new.count
      if removed == 1,
        (index..<new.count).allSatisfy({ equal(old[$0 + 1], new[$0]) })
      {
        statements.append("\(path).remove(at: \(index))")
        return true
      }
      return false
    }
    guard old.count == new.count, !new.isEmpty else { return false }
    let changed = new.indices.filter { !equal(old[$0], new[$0]) }
    // NB: when most elements changed, one assignment reads better than one line each, unless
    // the array moved by a few elements: the oldest dropped, as many added.
    guard changed.count * 2 <= new.count || changed.count == 1 else {
      for shift in 1..<min(4, new.count) where kept(from: shift, count: new.count - shift) {
        statements.append(shift == 1 ? "\(path).removeFirst()" : "\(path).removeFirst(\(shift))")
        appendStatement(Array(new.suffix(shift)), path: path, into: &statements)
        return true
      }
      return false
    }
    for index in changed {
      diff(old[index], new[index], path: "\(path)[\(index)]", into: &statements)
    }
    return true
  }

  /// Mutations of a dictionary, one per changed key; nil when its keys can't be written.
  private func diffDictionary(_ old: Mirror, _ new: Mirror, path: String) -> [String]? {
    func pairs(_ mirror: Mirror, source: (Any) -> String) -> [(key: String, value: Any)]? {
      var result: [(key: String, value: Any)] = []
      for child in mirror.children {
        let pair = Array(Mirror(reflecting: child.value).children)
        guard pair.count == 2 else { return nil }
        result.append((source(pair[0].value), pair[1].value))
      }
      return result.sorted { $0.key < $1.key }
    }
    guard let oldPairs = pairs(old, source: oldSource), let newPairs = pairs(new, source: newSource)
    else { return nil }
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
        } else if oldSource(oldValue) != newSource(value) {
          statements.append("\(path)[\(key)] = \(newSource(value))")
        }
      } else {
        statements.append("\(path)[\(key)] = \(newSource(value))")
      }
    }
    return statements
  }
}
