/// Where the counter's facts come from: an in-process service with latency, standing in for a
/// network call.
public struct FactsService: Sendable {
  /// A fact about a number.
  public var fact: @Sendable (Int) async throws -> String

  public init(fact: @escaping @Sendable (Int) async throws -> String) {
    self.fact = fact
  }

  /// Answers after `latency` on `clock`, with a fact worked out from the number.
  public static func inProcess(
    clock: any Clock<Duration>, latency: Duration = .seconds(1)
  ) -> Self {
    Self { number in
      try await clock.sleep(for: latency)
      return fact(about: number)
    }
  }

  /// A true statement about `number`.
  public static func fact(about number: Int) -> String {
    switch number {
    case 0: return "0 is the only number that is neither positive nor negative."
    case 1: return "1 is neither prime nor composite."
    case 2: return "2 is the only even prime."
    default:
      if (2..<number).allSatisfy({ number % $0 != 0 }) { return "\(number) is a prime." }
      let root = Int(Double(number).squareRoot())
      if root * root == number { return "\(number) is the square of \(root)." }
      return "\(number) is \(number.isMultiple(of: 2) ? "even" : "odd") and has "
        + "\((1...number).count { number % $0 == 0 }) divisors."
    }
  }
}
