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

  /// A true statement about `number`, any `Int`: the counter keeps within
  /// ``CounterReactor/range``, but a fact is told of whatever number it is asked.
  public static func fact(about number: Int) -> String {
    switch number {
    case 0: return "0 is the only number that is neither positive nor negative."
    case 1: return "1 is neither prime nor composite."
    case 2: return "2 is the only even prime."
    case ..<0: return "\(number) is negative."
    case 1_000_000_000_001...:
      // NB: no divisors counted past a trillion, so that any number is answered at once.
      return "\(number) is \(number.isMultiple(of: 2) ? "even" : "odd") and above a trillion."
    default:
      // NB: trial division up to the square root only.
      let root = squareRoot(of: number)
      if root * root == number { return "\(number) is the square of \(root)." }
      var divisors = 0
      var candidate = 1
      while candidate <= root {
        if number % candidate == 0 { divisors += 2 }
        candidate += 1
      }
      if divisors == 2 { return "\(number) is a prime." }
      let parity = number.isMultiple(of: 2) ? "even" : "odd"
      return "\(number) is \(parity) and has \(divisors) divisors."
    }
  }

  /// The largest whole number whose square is at most `number` (which is positive).
  private static func squareRoot(of number: Int) -> Int {
    var root = Int(Double(number).squareRoot())
    // NB: the double may be off by one: corrected.
    while root * root > number { root -= 1 }
    while (root + 1) * (root + 1) <= number { root += 1 }
    return root
  }
}
