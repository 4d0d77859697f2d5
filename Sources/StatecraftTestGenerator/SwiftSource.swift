import Foundation
import Statecraft

extension TestGenerator {
  /// A value written as Swift source: what a test can assign, compare or send.
  ///
  /// ```swift
  /// TestGenerator.swiftSource(Todo(id: 1, title: "Say \"hi\"\n"))
  /// // Todo(id: 1, title: "Say \"hi\"\n", isDone: false, notes: "")
  /// TestGenerator.swiftSource(Todos.Action.edit(id: 2, title: "Tea"))
  /// // .edit(id: 2, title: "Tea")
  /// ```
  ///
  /// It reads the value by reflection (`Mirror`):
  /// - strings are quoted, with quotes, backslashes, line breaks and other control characters
  ///   escaped; other characters (accents, CJK, emoji) are written as they are;
  /// - numbers, booleans, `nil`, arrays (an `IdentifiedArray` too), sets, dictionaries and
  ///   tuples are literals;
  /// - an enum case is written with a leading dot and its payload (`.syncing(percent: 40)`),
  ///   for the context to name the type;
  /// - a struct is written as a call of its memberwise initializer, with its type named in full
  ///   from its module down (`Todos.State(...)`): a type whose initializer takes other arguments
  ///   than its stored properties can't be built that way, so a generated test assigns the
  ///   fields that changed instead of whole values wherever it can;
  /// - `Date`, `UUID`, `URL`, `Duration` and `Decimal` are written with their initializers, and
  ///   a `Shared` value as `Shared(value: ...)` with the value it holds;
  /// - navigation state is written through its public API, without the ids that a store gives
  ///   it and that equality ignores: a `StackState` as `StackState([...])` (`StackState()` when
  ///   empty), a `@Presents` property as the optional value it presents, and a
  ///   `PresentationState` elsewhere as `PresentationState(wrappedValue: ...)`. A
  ///   `StackElementID` has no public spelling: written alone it is a fresh `StackElementID()`;
  ///   in a generated test, an action's id is read from the test store's state
  ///   (`store.state.path.ids[0]`).
  public static func swiftSource(_ value: Any) -> String {
    swiftSource(value, elementIDs: nil)
  }

  // MARK: - Helpers

  /// `value` as source, with the stack element ids it holds named by `elementIDs` (how a test
  /// reads them from its store's state), when given.
  static func swiftSource(_ value: Any, elementIDs: ElementIDNames?) -> String {
    var out = ""
    write(value, to: &out, elementIDs: elementIDs)
    return out
  }

  static func write(_ value: Any, to out: inout String, elementIDs: ElementIDNames? = nil) {
    func write(_ value: Any, to out: inout String) {
      TestGenerator.write(value, to: &out, elementIDs: elementIDs)
    }
    func writeArguments(
      _ children: some Collection<(label: String?, value: Any)>, to out: inout String
    ) {
      TestGenerator.writeArguments(children, to: &out, elementIDs: elementIDs)
    }
    switch value {
    case let string as String:
      out += quoted(string)
      return
    case let character as Character:
      out += quoted(String(character))
      return
    case let bool as Bool:
      out += bool ? "true" : "false"
      return
    case let number as any BinaryInteger:
      out += "\(number)"
      return
    case let number as Double:
      out += floatingPoint(number)
      return
    case let number as Float:
      out += floatingPoint(Double(number))
      return
    case let duration as Duration:
      out += durationSource(duration)
      return
    case let date as Date:
      out +=
        "Date(timeIntervalSinceReferenceDate: \(floatingPoint(date.timeIntervalSinceReferenceDate)))"
      return
    case let uuid as UUID:
      out += "UUID(uuidString: \(quoted(uuid.uuidString)))!"
      return
    case let url as URL:
      out += "URL(string: \(quoted(url.absoluteString)))!"
      return
    case let decimal as Decimal:
      out += "Decimal(string: \(quoted("\(decimal)")))!"
      return
    case let text as TextState:
      // NB: a string, which alerts, dialogs and buttons take as verbatim text: equal to the
      // text it renders.
      out += quoted(String(state: text))
      return
    case let shared as any SharedValue:
      out += "Shared(value: "
      write(shared.currentValue, to: &out)
      out += ")"
      return
    case let stack as any StackValue:
      let elements = stack.stackElements
      guard !elements.isEmpty else {
        out += "StackState()"
        return
      }
      out += "StackState("
      write(elements, to: &out)
      out += ")"
      return
    case let presentation as any PresentationValue:
      out += "PresentationState(wrappedValue: "
      write(presentation.presented as Any, to: &out)
      out += ")"
      return
    case let id as StackElementID:
      out += elementIDs?[id] ?? "StackElementID()"
      return
    default:
      break
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      if let wrapped = mirror.children.first?.value {
        write(wrapped, to: &out)
      } else {
        out += "nil"
      }
    case .enum:
      guard let payload = mirror.children.first else {
        out += "." + caseName(of: value)
        return
      }
      out += "." + (payload.label ?? "\(value)")
      let payloadMirror = Mirror(reflecting: payload.value)
      if payloadMirror.displayStyle == .tuple {
        writeArguments(payloadMirror.children, to: &out)
      } else {
        out += "("
        write(payload.value, to: &out)
        out += ")"
      }
    case .tuple:
      writeArguments(mirror.children, to: &out)
    case .collection, .set:
      out += "["
      var first = true
      for child in mirror.children {
        if !first { out += ", " }
        first = false
        write(child.value, to: &out)
      }
      out += "]"
    case .dictionary:
      guard !mirror.children.isEmpty else {
        out += "[:]"
        return
      }
      // NB: sorted by key, so that equal dictionaries read the same.
      let entries = mirror.children.compactMap { child -> String? in
        let pair = Array(Mirror(reflecting: child.value).children)
        guard pair.count == 2 else { return nil }
        return swiftSource(pair[0].value, elementIDs: elementIDs) + ": "
          + swiftSource(pair[1].value, elementIDs: elementIDs)
      }
      out += "[" + entries.sorted().joined(separator: ", ") + "]"
    default:
      // NB: structs and classes: a call of the memberwise initializer, stored properties in
      // order. A property wrapper's storage (`_name`) is passed as `name`: a `@Presents`
      // property as the value it presents, which the initializer takes.
      out += typeName(of: value)
      let children = mirror.children.map { child -> (label: String?, value: Any) in
        guard let label = child.label, label.hasPrefix("_") else { return child }
        if let presentation = child.value as? any PresentationValue {
          return (String(label.dropFirst()), presentation.presented as Any)
        }
        return (String(label.dropFirst()), child.value)
      }
      writeArguments(children, to: &out)
    }
  }

  /// The name of an enum case without a payload, even when the enum describes itself
  /// otherwise (`CustomStringConvertible`).
  private static func caseName(of value: Any) -> String {
    func name<T>(_ value: T) -> String? {
      enumCaseName(value).map { String(cString: $0) }
    }
    return _openExistential(value, do: name) ?? "\(value)"
  }

  private static func writeArguments(
    _ children: some Collection<(label: String?, value: Any)>, to out: inout String,
    elementIDs: ElementIDNames?
  ) {
    out += "("
    var first = true
    for child in children {
      if !first { out += ", " }
      first = false
      if let label = child.label, !label.hasPrefix(".") {
        out += "\(label): "
      }
      write(child.value, to: &out, elementIDs: elementIDs)
    }
    out += ")"
  }

  /// The name of a value's type as source: `Todos.State`, `Array<Todo>`, without the module
  /// names that `String(reflecting:)` puts before each type.
  static func typeName(of value: Any) -> String {
    typeName(type(of: value))
  }

  static func typeName(_ type: Any.Type) -> String {
    let reflected = String(reflecting: type)
    // NB: each dotted path in the name starts with its module; drop that first component.
    var result = ""
    var path: [Substring] = []
    var current = Substring()
    func flush() {
      if !current.isEmpty { path.append(current) }
      current = Substring()
      if path.count > 1 { path.removeFirst() }
      result += path.joined(separator: ".")
      path = []
    }
    var index = reflected.startIndex
    while index < reflected.endIndex {
      let character = reflected[index]
      if character.isLetter || character.isNumber || character == "_" {
        current.append(character)
      } else if character == "." {
        path.append(current)
        current = Substring()
      } else {
        flush()
        result.append(character)
      }
      index = reflected.index(after: index)
    }
    flush()
    return result
  }

  /// A string literal: quotes, backslashes and control characters escaped.
  static func quoted(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\0": out += "\\0"
      default:
        if scalar.properties.generalCategory == .control
          || scalar.properties.generalCategory == .format
          || scalar.properties.generalCategory == .lineSeparator
          || scalar.properties.generalCategory == .paragraphSeparator
        {
          out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  private static func floatingPoint(_ number: Double) -> String {
    if number.isNaN { return ".nan" }
    if number.isInfinite { return number < 0 ? "-.infinity" : ".infinity" }
    return "\(number)"
  }

  /// `.seconds(2)`, `.milliseconds(150)` or `.microseconds(1500)`: the largest whole unit.
  static func durationSource(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return ".seconds(\(seconds))" }
    if attoseconds % 1_000_000_000_000_000 == 0 {
      return ".milliseconds(\(seconds * 1_000 + attoseconds / 1_000_000_000_000_000))"
    }
    if attoseconds % 1_000_000_000_000 == 0 {
      return ".microseconds(\(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))"
    }
    return ".nanoseconds(\(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))"
  }
}

// NB: the runtime function that `String(describing:)` itself uses for the name of an enum case;
// it never calls a type's `description`.
@_silgen_name("swift_EnumCaseName")
private func enumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

/// A `Shared` value, seen through what it holds: the generator writes and compares that.
protocol SharedValue {
  /// The value it holds; while a recording's shared values are read
  /// (`SharedSnapshot.whileReading`), the value it had at that step.
  var currentValue: Any { get }
}

extension Shared: SharedValue {
  var currentValue: Any { recordedValue }
}

/// A `StackState`, seen through its elements: equality ignores its ids, and so does the
/// generator.
protocol StackValue {
  var stackElements: [Any] { get }
  var stackIDs: [StackElementID] { get }
}

extension StackState: StackValue {
  var stackElements: [Any] { map { $0 } }
  var stackIDs: [StackElementID] { Array(ids) }
}

/// A `PresentationState`, seen through the value it presents: equality ignores its id.
protocol PresentationValue {
  var presented: Any? { get }
}

extension PresentationState: PresentationValue {
  var presented: Any? { wrappedValue.map { $0 } }
}
