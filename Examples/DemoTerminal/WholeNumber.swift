import ArgumentParser

/// A whole number as typed, for an option with a range: one too large for `Int` is kept as
/// text, so that it gets the range error too rather than "invalid value".
public struct WholeNumber: ExpressibleByArgument, CustomStringConvertible {
  public let description: String
  /// The number, or nil when it does not fit in an `Int`.
  public let value: Int?

  public init(_ value: Int) {
    self.description = String(value)
    self.value = value
  }

  public init?(argument: String) {
    let digits =
      argument.hasPrefix("-") || argument.hasPrefix("+")
      ? argument.dropFirst() : Substring(argument)
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    self.description = argument
    self.value = Int(argument)
  }

  public var defaultValueDescription: String { description }

  /// Whether the number is in `range`.
  public func isIn(_ range: ClosedRange<Int>) -> Bool { value.map(range.contains) ?? false }
}
