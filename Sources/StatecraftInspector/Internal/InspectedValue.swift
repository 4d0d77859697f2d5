// Owns how the Inspector shows a value to the page: as JSON, through `Encodable` when the value
// is, and otherwise as a tree read with `Mirror` (structs and classes as objects, collections as
// arrays, enum cases as `{"case": payload}`), so that a state or action that isn't `Codable` is
// still a tree the page can fold and search. Also the name of an action's case, for the log's
// filter.
import CustomDump
import Foundation
import Statecraft

/// A JSON value built from a Swift value, encoded as text for the page.
enum InspectedValue: Encodable {
  case null
  case bool(Bool)
  case number(Double)
  case integer(Int64)
  case string(String)
  case array([InspectedValue])
  case object([(String, InspectedValue)])
  /// JSON text made by a value's own `Encodable` conformance.
  case encoded(any Encodable)

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let value):
      var container = encoder.singleValueContainer()
      // NB: JSON has no infinities or NaN; the page shows them as strings.
      if value.isFinite { try container.encode(value) } else { try container.encode("\(value)") }
    case .integer(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let values):
      var container = encoder.unkeyedContainer()
      for value in values { try container.encode(value) }
    case .object(let fields):
      var container = encoder.container(keyedBy: DynamicKey.self)
      for (key, value) in fields { try container.encode(value, forKey: DynamicKey(key)) }
    case .encoded(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  /// The value as JSON: through its `Encodable` conformance when it has one and it encodes,
  /// otherwise read with `Mirror`.
  static func of(_ value: Any) -> InspectedValue {
    if let encodable = value as? any Encodable, encodes(encodable) { return .encoded(encodable) }
    return mirrored(value)
  }

  /// `value` read with `Mirror`: its `Encodable` parts are kept as they are.
  static func mirrored(_ value: Any) -> InspectedValue {
    mirrored(value, depth: 0)
  }

  /// JSON text of `value` (see ``of(_:)``), compact.
  static func json(_ value: Any) -> String {
    (try? String(decoding: compactEncoder.encode(of(value)), as: UTF8.self)) ?? "null"
  }

  /// JSON of `value` (see ``of(_:)``), compact, as bytes.
  static func jsonData(_ value: Any) -> Data {
    (try? compactEncoder.encode(of(value))) ?? Data("null".utf8)
  }

  private static let compactEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  private static func encodes(_ value: any Encodable) -> Bool {
    (try? compactEncoder.encode(value)) != nil
  }

  /// The deepest a mirrored tree goes; deeper values are shown as their dump.
  private static let maximumDepth = 24

  private static func mirrored(_ value: Any, depth: Int) -> InspectedValue {
    switch value {
    case let value as Bool: return .bool(value)
    case let value as String: return .string(value)
    case let value as Substring: return .string(String(value))
    case let value as Character: return .string(String(value))
    case let value as any BinaryInteger: return .integer(Int64(truncatingIfNeeded: value))
    case let value as Double: return .number(value)
    case let value as Float: return .number(Double(value))
    case let value as Date: return .string("\(value)")
    case let value as URL: return .string(value.absoluteString)
    case let value as UUID: return .string(value.uuidString)
    default: break
    }
    if depth >= maximumDepth { return .string(dump(value)) }
    if let encodable = value as? any Encodable, encodes(encodable) { return .encoded(encodable) }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .null }
      return mirrored(wrapped, depth: depth + 1)
    case .collection, .set:
      return .array(mirror.children.map { mirrored($0.value, depth: depth + 1) })
    case .dictionary:
      return .object(
        mirror.children.map { child in
          let pair = Mirror(reflecting: child.value).children.map(\.value)
          guard pair.count == 2 else { return ("?", mirrored(child.value, depth: depth + 1)) }
          let key = pair[0] as? String ?? dump(pair[0])
          return (key, mirrored(pair[1], depth: depth + 1))
        })
    case .enum:
      guard let payload = mirror.children.first else { return .string(caseLabel(of: value)) }
      return .object([(payload.label ?? "case", mirrored(payload.value, depth: depth + 1))])
    case .tuple:
      return .object(
        mirror.children.enumerated().map { index, child in
          (
            child.label.map { $0.hasPrefix(".") ? String(index) : $0 } ?? String(index),
            mirrored(child.value, depth: depth + 1)
          )
        })
    case .struct, .class:
      if mirror.children.isEmpty { return .string(dump(value)) }
      return .object(
        mirror.children.enumerated().map { index, child in
          (child.label ?? String(index), mirrored(child.value, depth: depth + 1))
        })
    default:
      return .string(dump(value))
    }
  }

  private static func dump(_ value: Any) -> String {
    var text = ""
    customDump(value, to: &text, maxDepth: 2)
    return text
  }
}

/// The name of `action`'s case, with the cases it wraps: `list.toggle` for
/// `.list(.toggle(id))`, `mutation.setCount` for a reactor's mutation; the type's name for a
/// value that isn't an enum.
func caseName(of action: Any) -> String {
  var names: [String] = []
  var value = action
  for _ in 0..<4 {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { break }
    guard let payload = mirror.children.first else {
      names.append(caseLabel(of: value))
      break
    }
    names.append(payload.label ?? "case")
    value = payload.value
  }
  if names.isEmpty { return "\(type(of: action))" }
  return names.joined(separator: ".")
}

/// The label of an enum case without a payload (`increment`), without its type's name.
private func caseLabel(of value: Any) -> String {
  let text = String(describing: value)
  return text.split(separator: ".").last.map(String.init) ?? text
}

struct DynamicKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// An `Encodable` value of a type known at run time only.
struct AnyEncodable: Encodable {
  let value: any Encodable
  /// The values the shared values of `value` had when it was recorded, if it holds any.
  var shared: SharedSnapshot? = nil

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try shared.whileReading { try container.encode(value) }
  }
}
