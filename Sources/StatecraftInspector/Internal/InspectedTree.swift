// Owns what a page is sent of a state: the state as an immutable JSON tree, encoded straight from
// the state (TreeEncoder.swift), so that everything after the encoding (comparing two steps' states,
// cutting a tree to the size of a message, paging a container's children) runs off the main
// actor on a `Sendable` value. A step's detail is the paths that changed, with their old and
// new values, and the state cut to a budget; the page asks for the rest of a container a page of
// children at a time. No message built here is larger than `InspectedTree.maximumMessageSize`.
import Foundation

/// A JSON value, as the page reads it: numbers keep their text, objects their keys' order.
enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array(JSONList)
  case object([(key: String, value: JSONValue)])

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      // NB: two steps' trees share the objects of what did not change (see TreeEncoder.swift):
      // the same storage is the same object.
      a.count == b.count
        && (sameStorage(a, b)
          || zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value })
    default: false
    }
  }

  private static func sameStorage<T>(_ a: [T], _ b: [T]) -> Bool {
    a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress } }
  }

  /// The value's children, keyed as a path names them: an object's keys, an array's indices.
  var children: [(key: PathComponent, value: JSONValue)]? {
    switch self {
    case .array(let values): values.enumerated().map { (.index($0.offset), $0.element) }
    case .object(let fields): fields.map { (.key($0.key), $0.value) }
    default: nil
    }
  }

  /// The value at `component`, if it has one.
  func child(_ component: PathComponent) -> JSONValue? {
    switch (self, component) {
    case (.array(let values), .index(let index)):
      values.indices.contains(index) ? values[index] : nil
    case (.object(let fields), .key(let key)): fields.first { $0.key == key }?.value
    default: nil
    }
  }
}

/// A JSON array's elements, in chunks that the next version of a list shares (see
/// ChunkedArray.swift).
typealias JSONList = ChunkedArray<JSONValue>

/// One step of a path into a state: an object's key or an array's index.
enum PathComponent: Sendable, Equatable, Hashable {
  case key(String)
  case index(Int)

  var json: String {
    switch self {
    case .key(let key): JSONText.quoted(key)
    case .index(let index): String(index)
    }
  }

  /// As the text diff writes it: `.title`, `[3]`.
  var text: String {
    switch self {
    case .key(let key): "." + key
    case .index(let index): "[\(index)]"
    }
  }
}

typealias JSONPath = [PathComponent]

extension Array where Element == PathComponent {
  var json: String { "[" + map(\.json).joined(separator: ",") + "]" }
  var text: String {
    let text = map(\.text).joined()
    return text.hasPrefix(".") ? String(text.dropFirst()) : text.isEmpty ? "(the state)" : text
  }
}

// MARK: - Reading

extension JSONValue {
  /// Reads JSON text (as `JSONEncoder` and `JSONSerialization` write it); nil when it isn't.
  init?(parsing data: Data) {
    var reader = JSONReader(bytes: Array(data))
    guard let value = reader.value(depth: 0) else { return nil }
    reader.skipSpace()
    guard reader.index == reader.bytes.count else { return nil }
    self = value
  }
}

/// A reader of JSON text, for text our own encoder wrote.
private struct JSONReader {
  let bytes: [UInt8]
  var index = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
  }

  mutating func value(depth: Int) -> JSONValue? {
    skipSpace()
    guard index < bytes.count, depth < 512 else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var fields: [(key: String, value: JSONValue)] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(fields)
      }
      while true {
        skipSpace()
        guard let key = string() else { return nil }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let value = value(depth: depth + 1) else { return nil }
        fields.append((key, value))
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { return nil }
        index += 1
        return .object(fields)
      }
    case UInt8(ascii: "["):
      index += 1
      var values: JSONList = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(values)
      }
      while true {
        guard let value = value(depth: depth + 1) else { return nil }
        values.append(value)
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { return nil }
        index += 1
        return .array(values)
      }
    case UInt8(ascii: "\""):
      return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default:
      let start = index
      while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
      guard index > start else { return nil }
      return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || [
        UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
        UInt8(ascii: "E"),
      ].contains(byte)
  }

  private mutating func literal(_ text: String, _ value: JSONValue) -> JSONValue? {
    let expected = Array(text.utf8)
    guard index + expected.count <= bytes.count,
      bytes[index..<index + expected.count].elementsEqual(expected)
    else { return nil }
    index += expected.count
    return value
  }

  private mutating func string() -> String? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    index += 1
    var scalars: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: scalars, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { return nil }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "u"):
          guard var code = hex4() else { return nil }
          if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count,
            bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
          {
            index += 2
            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
          scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: scalars.append(escape)
        }
      default:
        scalars.append(byte)
      }
    }
    return nil
  }

  private mutating func hex4() -> UInt32? {
    guard index + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else { return nil }
    index += 4
    return value
  }
}

// MARK: - Writing

/// JSON text, written by hand where a value is cut to a budget as it is written.
enum JSONText {
  /// `text` as a JSON string: `"`, `\\`, the control characters and U+2028 and U+2029 (line
  /// breaks to a script) escaped; the rest as it is.
  ///
  /// NB: the timeline sends every step's case, origin and summary when a page connects or a move
  /// ends: text that needs no escape (almost all of it) is copied in one piece.
  static func quoted(_ text: String) -> String {
    if !text.utf8.contains(where: needsEscape) { return "\"" + text + "\"" }
    var result = "\""
    result.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20 || (0x2028...0x2029).contains(scalar.value):
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// Whether a UTF-8 byte may start something `quoted` escapes (0xE2 leads U+2028 and U+2029).
  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2
  }
}

/// Writes JSON values cut to a budget of bytes: past it, a container is written with the
/// children it has room for, and its path is noted, with how many children it shows and has,
/// so that the page can ask for the rest (`children`). A long string is cut.
struct BudgetedWriter {
  /// A container written with fewer children than it has.
  struct Cut: Sendable, Equatable {
    let path: JSONPath
    let shown: Int
    let count: Int

    var json: String { #"{"path":\#(path.json),"shown":\#(shown),"count":\#(count)}"# }
  }

  /// The longest string written whole, in characters; a longer one is cut, with a note of its
  /// length.
  static let maximumStringLength = 2_000
  /// The most children a container shows before the page asks for more.
  static let maximumChildren = 200

  private(set) var remaining: Int
  private(set) var cuts: [Cut] = []

  init(budget: Int) { remaining = budget }

  /// `value` at `path`, as much of it as the budget holds, to at most `depth` levels.
  mutating func write(_ value: JSONValue, at path: JSONPath, depth: Int = 64) -> String {
    switch value {
    case .null: return spend("null")
    case .bool(let flag): return spend(flag ? "true" : "false")
    case .number(let text): return spend(text)
    case .string(let text): return spend(Self.cutString(text))
    case .array, .object:
      let children = value.children ?? []
      let isArray = if case .array = value { true } else { false }
      var parts: [String] = []
      _ = spend(isArray ? "[]" : "{}")
      if depth > 0 {
        for (key, child) in children.prefix(Self.maximumChildren) {
          // NB: a child is written only while a few bytes are left, so that a deep first
          // child can't take the whole budget from its siblings' summaries.
          guard remaining > 64 else { break }
          let text = write(child, at: path + [key], depth: depth - 1)
          parts.append(isArray ? text : JSONText.quoted(keyText(key)) + ":" + text)
          _ = spend(",")
        }
      }
      if parts.count < children.count {
        let cut = Cut(path: path, shown: parts.count, count: children.count)
        cuts.append(cut)
        _ = spend(cut.json)
      }
      return (isArray ? "[" : "{") + parts.joined(separator: ",") + (isArray ? "]" : "}")
    }
  }

  private func keyText(_ key: PathComponent) -> String {
    switch key {
    case .key(let key): key
    case .index(let index): String(index)
    }
  }

  private mutating func spend(_ text: String) -> String {
    remaining -= text.utf8.count
    return text
  }

  static func cutString(_ text: String) -> String {
    guard text.count > maximumStringLength else { return JSONText.quoted(text) }
    return JSONText.quoted(
      String(text.prefix(maximumStringLength))
        + "… (\(text.count - maximumStringLength) more characters)")
  }
}

// MARK: - Changes

/// One path whose value differs between two steps' states.
struct TreeChange: Sendable, Equatable {
  enum Kind: String, Sendable { case added, removed, changed }
  let path: JSONPath
  let kind: Kind
  let old: JSONValue?
  let new: JSONValue?
}

enum TreeDiff {
  /// The paths at which `old` and `new` differ, deepest first where both are containers of the
  /// same kind: at most `limit` of them, and how many there are in all.
  ///
  /// An array's common prefix and suffix are skipped; an element dropped from its front and one
  /// added at its end (a bounded undo stack) are a removal and an addition, not a change of
  /// every element.
  static func changes(from old: JSONValue, to new: JSONValue, limit: Int = 100)
    -> (changes: [TreeChange], count: Int)
  {
    var changes: [TreeChange] = []
    var count = 0
    func note(_ change: TreeChange) {
      count += 1
      if changes.count < limit { changes.append(change) }
    }
    func visit(_ old: JSONValue, _ new: JSONValue, _ path: JSONPath) {
      guard old != new else { return }
      switch (old, new) {
      case (.object(let a), .object(let b)):
        for (key, value) in b {
          if let before = a.first(where: { $0.key == key })?.value {
            visit(before, value, path + [.key(key)])
          } else {
            note(TreeChange(path: path + [.key(key)], kind: .added, old: nil, new: value))
          }
        }
        for (key, value) in a where !b.contains(where: { $0.key == key }) {
          note(TreeChange(path: path + [.key(key)], kind: .removed, old: value, new: nil))
        }
      case (.array(let a), .array(let b)):
        // NB: the chunks the two lists share are skipped unread.
        let prefix = a.commonPrefixCount(with: b, by: ==)
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
          a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
        {
          suffix += 1
        }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        // NB: a window that moved by a few elements (the oldest dropped, a newest added).
        if middleA.count == middleB.count, middleA.count > 1 {
          for shift in 1...min(3, middleA.count - 1)
          where middleA[shift...].elementsEqual(middleB[..<(middleB.count - shift)]) {
            for index in 0..<shift {
              note(
                TreeChange(
                  path: path + [.index(prefix + index)], kind: .removed, old: middleA[index],
                  new: nil))
            }
            for index in (middleB.count - shift)..<middleB.count {
              note(
                TreeChange(
                  path: path + [.index(prefix + index)], kind: .added, old: nil,
                  new: middleB[index]))
            }
            return
          }
        }
        let paired = min(middleA.count, middleB.count)
        for index in 0..<paired {
          visit(middleA[index], middleB[index], path + [.index(prefix + index)])
        }
        for index in paired..<max(paired, middleA.count) {
          note(
            TreeChange(
              path: path + [.index(prefix + index)], kind: .removed, old: middleA[index], new: nil))
        }
        for index in paired..<max(paired, middleB.count) {
          note(
            TreeChange(
              path: path + [.index(prefix + index)], kind: .added, old: nil, new: middleB[index]))
        }
      default:
        note(TreeChange(path: path, kind: .changed, old: old, new: new))
      }
    }
    visit(old, new, [])
    return (changes, count)
  }
}

// MARK: - Messages

/// The messages about a step's state, built off the main actor from its tree.
enum InspectedTree {
  /// The largest message the server sends a page, in bytes: a step's detail, a page of a
  /// container's children, a batch of steps.
  static let maximumMessageSize = 2 * 1024 * 1024
  /// The part of a detail given to the state, and to the changes (the rest is the action,
  /// the text diff and the fields).
  /// The page shows a few levels and the first children of each container, and asks for
  /// more a page at a time: a larger budget only costs every following page's every detail.
  static let stateBudget = 256 * 1024
  static let changesBudget = 512 * 1024
  static let diffBudget = 256 * 1024
  static let actionBudget = 256 * 1024
  /// The most changed paths a detail lists.
  static let maximumChanges = 100

  struct DetailFields: Sendable {
    let step: Int
    let viewing: Bool
    let liveStep: Int
    let recomputed: Bool
    /// The step is skipped: its state is the one before it.
    var skipped = false
  }

  /// A step's detail: the state cut to its budget, with the containers cut; the changed paths
  /// with their old and new values; and a text diff of those paths alone.
  static func detail(
    _ fields: DetailFields, action: JSONValue?, state: JSONValue, previous: JSONValue?
  ) -> String {
    var stateWriter = BudgetedWriter(budget: stateBudget)
    let stateText = stateWriter.write(state, at: [], depth: 8)
    var actionWriter = BudgetedWriter(budget: actionBudget)
    let actionText = action.map { actionWriter.write($0, at: [], depth: 16) } ?? "null"
    var changesText = "null"
    var diffText = "null"
    var changeCount = 0
    if let previous {
      let found = TreeDiff.changes(from: previous, to: state, limit: maximumChanges)
      changeCount = found.count
      var remaining = changesBudget
      var diff = ""
      var entries: [String] = []
      for change in found.changes {
        // NB: each change gets a share of what is left, so that one huge value can't crowd out
        // the others.
        let share = max(remaining / max(found.changes.count - entries.count, 1) / 2, 256)
        var side = BudgetedWriter(budget: share)
        let old = change.old.map { side.write($0, at: change.path, depth: 4) }
        let new = change.new.map { side.write($0, at: change.path, depth: 4) }
        var entry = #"{"path":\#(change.path.json),"kind":"\#(change.kind.rawValue)""#
        if let old { entry += #","old":\#(old)"# }
        if let new { entry += #","new":\#(new)"# }
        if !side.cuts.isEmpty { entry += #","cut":true"# }
        entry += "}"
        entries.append(entry)
        remaining -= entry.utf8.count
        if diff.utf8.count < diffBudget {
          diff +=
            change.path.text + (change.kind == .changed ? "" : " (\(change.kind.rawValue))") + "\n"
          if let old { diff += "- \(old)\n" }
          if let new { diff += "+ \(new)\n" }
        }
      }
      if changeCount > found.changes.count {
        diff += "… \(changeCount - found.changes.count) more changed paths\n"
      }
      changesText = "[" + entries.joined(separator: ",") + "]"
      diffText = JSONText.quoted(diff.isEmpty ? "(no change)" : diff)
    }
    return #"{"type":"detail","step":\#(fields.step),"viewing":\#(fields.viewing),"#
      + #""liveStep":\#(fields.liveStep),"recomputed":\#(fields.recomputed),"#
      + #""skipped":\#(fields.skipped),"#
      + #""action":\#(actionText),"state":\#(stateText),"#
      + #""cuts":[\#(stateWriter.cuts.map(\.json).joined(separator: ","))],"#
      + #""changes":\#(changesText),"changeCount":\#(changeCount),"diff":\#(diffText)}"#
  }

  /// A page of the children of the container at `path` in `state`, from `offset`, each cut to
  /// a share of the budget; nil when there is no container there.
  static func children(step: Int, path: JSONPath, offset: Int, in state: JSONValue) -> String? {
    var value = state
    for component in path {
      guard let child = value.child(component) else { return nil }
      value = child
    }
    guard let children = value.children else { return nil }
    var writer = BudgetedWriter(budget: stateBudget)
    var entries: [String] = []
    let start = min(offset, children.count)
    for (key, child) in children[start...].prefix(BudgetedWriter.maximumChildren) {
      guard writer.remaining > 64 else { break }
      let text = writer.write(child, at: path + [key], depth: 3)
      entries.append("[\(key.json),\(text)]")
    }
    return #"{"type":"children","step":\#(step),"path":\#(path.json),"offset":\#(start),"#
      + #""count":\#(children.count),"entries":[\#(entries.joined(separator: ","))],"#
      + #""cuts":[\#(writer.cuts.map(\.json).joined(separator: ","))]}"#
  }
}
