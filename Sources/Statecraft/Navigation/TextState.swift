import ConcurrencyExtras
import CustomDump
import Foundation

// Owns the text of alerts, dialogs and buttons as a value: verbatim or a localization key with
// its arguments, concatenated with `+`, rendered to a `String` (localized on Apple platforms,
// plain on Linux).

/// Text as a value, for the title, message and buttons of an ``AlertState`` or a
/// ``ConfirmationDialogState``: TCA's `TextState`.
///
/// A string literal is a localization key, as with SwiftUI's `Text`; a `String` value, or
/// `verbatim:`, is shown as it is:
///
/// ```swift
/// TextState("Delete “\(todo.title)”?")   // the key "Delete “%@”?", localized
/// TextState(todo.title)                  // verbatim
/// TextState(verbatim: "100%")            // verbatim
/// TextState("Saved ") + TextState(verbatim: name) + TextState(".")
/// ```
///
/// On Apple platforms a key is looked up in its bundle's strings table (`Localizable` unless
/// `tableName` says otherwise) and its arguments are formatted into the translation. On Linux,
/// and when no translation exists, the key itself is the text. ``description`` and
/// `String(state:)` give the rendered text.
///
/// Two texts are equal when they render the same: `TextState("Yes") == TextState(verbatim:
/// "Yes")`. A test asserts an alert without caring how its text was built.
public struct TextState: Sendable {
  indirect enum Storage: Sendable {
    case verbatim(String)
    case localized(
      LocalizedKey, tableName: String?, bundle: UncheckedSendable<Bundle>?, comment: StaticString?
    )
    case concatenated(TextState, TextState)
  }

  let storage: Storage

  /// Text shown as it is, never localized.
  public init(verbatim content: String) {
    self.storage = .verbatim(content)
  }

  /// Text shown as it is, never localized: `TextState(todo.title)`.
  // NB: disfavored, as SwiftUI's `Text.init<S: StringProtocol>` is, so that a string literal is
  // a localization key.
  @_disfavoredOverload
  public init<S: StringProtocol>(_ content: S) {
    self.storage = .verbatim(String(content))
  }

  /// Text localized by `key`, a string literal whose interpolations are its arguments:
  /// `TextState("\(count) items left")` is the key `"%lld items left"` with `count`.
  ///
  /// - Parameters:
  ///   - key: The key, and the text when no translation is found.
  ///   - tableName: The strings table to look in; `Localizable` when nil.
  ///   - bundle: The bundle to look in; the main bundle when nil.
  ///   - comment: A note for translators.
  public init(
    _ key: LocalizedKey, tableName: String? = nil, bundle: Bundle? = nil,
    comment: StaticString? = nil
  ) {
    self.storage = .localized(
      key, tableName: tableName, bundle: bundle.map { UncheckedSendable($0) }, comment: comment)
  }

  /// The two texts, one after the other.
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(storage: .concatenated(lhs, rhs))
  }

  private init(storage: Storage) {
    self.storage = storage
  }
}

extension TextState {
  /// A localization key and its arguments, written as a string literal: each interpolation is
  /// an argument, and stands in the key as a format specifier (`%@` for text, `%lld` for an
  /// integer, `%lf` for a floating-point number), as in SwiftUI's `LocalizedStringKey`.
  ///
  /// ```swift
  /// TextState("\(name) has \(count) unread messages")
  /// // key: "%@ has %lld unread messages"
  /// TextState("Due \(date, format: .dateTime.day().month())")
  /// ```
  public struct LocalizedKey: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The key: the literal's text, with a format specifier for each interpolation.
    public let key: String
    let arguments: [Argument]

    /// A key without arguments.
    public init(stringLiteral value: String) {
      self.key = value.replacingOccurrences(of: "%", with: "%%")
      self.arguments = []
    }

    /// A key with the interpolations of a literal as its arguments.
    public init(stringInterpolation: StringInterpolation) {
      self.key = stringInterpolation.key
      self.arguments = stringInterpolation.arguments
    }

    /// The interpolations of a ``LocalizedKey`` literal.
    public struct StringInterpolation: StringInterpolationProtocol {
      var key = ""
      var arguments: [Argument] = []

      public init(literalCapacity: Int, interpolationCount: Int) {
        key.reserveCapacity(literalCapacity + 4 * interpolationCount)
      }

      public mutating func appendLiteral(_ literal: String) {
        key += literal.replacingOccurrences(of: "%", with: "%%")
      }

      /// Text: `%@`.
      public mutating func appendInterpolation(_ string: some StringProtocol) {
        key += "%@"
        arguments.append(.text(TextState(verbatim: String(string))))
      }

      /// Text that is itself localized: `%@`.
      public mutating func appendInterpolation(_ text: TextState) {
        key += "%@"
        arguments.append(.text(text))
      }

      /// An integer: `%lld`.
      public mutating func appendInterpolation(_ value: some BinaryInteger) {
        key += "%lld"
        arguments.append(.integer(Int64(value)))
      }

      /// A floating-point number: `%lf`.
      public mutating func appendInterpolation(_ value: some BinaryFloatingPoint) {
        key += "%lf"
        arguments.append(.floatingPoint(Double(value)))
      }

      /// A value formatted by `format`, as text: `%@`.
      public mutating func appendInterpolation<Format: FormatStyle>(
        _ value: Format.FormatInput, format: Format
      ) where Format.FormatOutput == String {
        appendInterpolation(format.format(value))
      }

      /// Any other value, as its description: `%@`.
      @_disfavoredOverload
      public mutating func appendInterpolation(_ value: some Any) {
        appendInterpolation(String(describing: value))
      }
    }
  }

  /// An argument of a localization key.
  indirect enum Argument: Sendable, Hashable {
    case text(TextState)
    case integer(Int64)
    case floatingPoint(Double)
  }
}

// MARK: - Rendering

extension TextState: CustomStringConvertible {
  /// The text, rendered: localized on Apple platforms, the key itself on Linux or without a
  /// translation.
  public var description: String { rendered() }

  func rendered() -> String {
    switch storage {
    case .verbatim(let string):
      return string
    case .localized(let key, let tableName, let bundle, _):
      return key.format(key.template(tableName: tableName, bundle: bundle?.value))
    case .concatenated(let first, let second):
      return first.rendered() + second.rendered()
    }
  }
}

extension TextState.LocalizedKey {
  /// The translation of the key, or the key itself.
  func template(tableName: String?, bundle: Bundle?) -> String {
    #if canImport(Darwin)
      return (bundle ?? .main).localizedString(forKey: key, value: key, table: tableName)
    #else
      return key
    #endif
  }

  /// `template` with its format specifiers replaced by the arguments: `%%` is `%`, `%2$@` takes
  /// the second argument, and each other specifier the next one.
  func format(_ template: String) -> String {
    var result = ""
    var next = 0
    var characters = template[...]
    while let percent = characters.firstIndex(of: "%") {
      result += characters[..<percent]
      characters = characters[characters.index(after: percent)...]
      if characters.first == "%" {
        result += "%"
        characters = characters.dropFirst()
        continue
      }
      // NB: a specifier is flags, width and precision, a length, then one conversion letter.
      guard
        let end = characters.firstIndex(where: { "@dDiuUxXoOfFeEgGaAcCsSp".contains($0) })
      else {
        result += "%" + characters
        return result
      }
      var spec = characters[..<end]
      let conversion = characters[end]
      characters = characters[characters.index(after: end)...]
      var index = next
      if let dollar = spec.firstIndex(of: "$"), let position = Int(spec[..<dollar]) {
        index = position - 1
        spec = spec[spec.index(after: dollar)...]
      } else {
        next += 1
      }
      guard arguments.indices.contains(index) else { continue }
      result += arguments[index].formatted(spec: String(spec), conversion: conversion)
    }
    return result + characters
  }
}

extension TextState.Argument {
  func formatted(spec: String, conversion: Character) -> String {
    switch self {
    case .text(let text):
      return text.rendered()
    case .integer(let value):
      let flags = spec.filter { !"hlqLjzt".contains($0) }
      return String(format: "%\(flags)lld", value)
    case .floatingPoint(let value):
      let flags = spec.filter { !"hlqLjzt".contains($0) }
      let letter = "fFeEgGaA".contains(conversion) ? conversion : "f"
      return String(format: "%\(flags)\(letter)", value)
    }
  }
}

extension String {
  /// The rendered text of `state`: localized on Apple platforms, plain on Linux.
  ///
  /// ```swift
  /// String(state: alert.title)  // "Delete “Buy milk”?"
  /// ```
  public init(state: TextState) {
    self = state.rendered()
  }
}

// MARK: - Equality

extension TextState: Equatable {
  /// Whether the two texts render the same.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.rendered() == rhs.rendered()
  }
}

extension TextState: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rendered())
  }
}

extension TextState: CustomDumpStringConvertible {
  public var customDumpDescription: String {
    "TextState(\(String(customDumping: rendered())))"
  }
}
