/// A pseudo-random number generator that gives the same numbers for the same seed on every
/// machine and every Swift version: xoshiro256**, seeded through SplitMix64.
///
/// Exploration draws every choice from one of these, never from the system's generator, so that a
/// seed names a session.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let die = random.next(below: 6) + 1
/// ```
///
/// Draw bounded numbers with ``next(below:)``: the standard library's `Int.random(in:using:)`
/// and `shuffle(using:)` may change how they use a generator from one Swift version to the next.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: (UInt64, UInt64, UInt64, UInt64)

  /// A generator whose numbers are fixed by `seed`.
  public init(seed: UInt64) {
    var splitMix = seed
    func nextSplitMix() -> UInt64 {
      splitMix &+= 0x9E37_79B9_7F4A_7C15
      var z = splitMix
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    state = (nextSplitMix(), nextSplitMix(), nextSplitMix(), nextSplitMix())
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    let result = rotate(state.1 &* 5, 7) &* 9
    let t = state.1 << 17
    state.2 ^= state.0
    state.3 ^= state.1
    state.1 ^= state.2
    state.0 ^= state.3
    state.2 ^= t
    state.3 = rotate(state.3, 45)
    return result
  }

  /// A number in `0..<bound`; `bound` must be positive.
  ///
  /// ```swift
  /// let index = random.next(below: choices.count)
  /// ```
  public mutating func next(below bound: Int) -> Int {
    precondition(bound > 0, "A bound must be positive.")
    // NB: the high word of a 64×64-bit product: unbiased enough for choosing among a few
    // choices, and the same on every platform.
    return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// True with probability `numerator / denominator`.
  public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
    next(below: denominator) < numerator
  }

  private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 {
    (x << k) | (x >> (64 - k))
  }
}
