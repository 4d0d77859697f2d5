/// Generates random values, each with the simpler values it can shrink to when it is part of a
/// failing session: the actions exploration sends, and the values in them.
///
/// ```swift
/// let actions = ValueGenerator<Counter.Action>.weighted([
///   (3, .constant(.incrementButtonTapped)),
///   (1, .constant(.decrementButtonTapped)),
///   (1, .int(in: 1...10).map(Counter.Action.addButtonTapped)),
/// ])
/// ```
///
/// A value shrinks toward the start of what it was drawn from: an integer toward the lower bound
/// of its range, an element toward the first of its list, a weighted choice within the
/// generator it chose. `map` keeps the shrinks of the value it maps.
public struct ValueGenerator<Value>: Sendable {
  let run: @Sendable (inout SeededRandom) -> Shrinkable<Value>

  /// A generator from a function of a seeded generator, and the simpler values a value may
  /// shrink to (none, by default).
  ///
  /// ```swift
  /// let evens = ValueGenerator<Int>(
  ///   generate: { random in 2 * random.next(below: 50) },
  ///   shrink: { $0 == 0 ? [] : [0, $0 / 4 * 2] })
  /// ```
  ///
  /// `shrink` returns candidates, simplest first; each must be simpler than the value, so
  /// that shrinking ends.
  public init(
    generate: @escaping @Sendable (inout SeededRandom) -> Value,
    shrink: @escaping @Sendable (Value) -> [Value] = { _ in [] }
  ) {
    self.run = { random in Shrinkable(generate(&random), shrink: shrink) }
  }

  init(run: @escaping @Sendable (inout SeededRandom) -> Shrinkable<Value>) {
    self.run = run
  }

  /// A value drawn from `random`.
  ///
  /// ```swift
  /// var random = SeededRandom(seed: 1)
  /// let action = actions.generate(using: &random)
  /// ```
  public func generate(using random: inout SeededRandom) -> Value {
    run(&random).value
  }

  /// The values of this generator, transformed: an action made from a generated payload.
  ///
  /// ```swift
  /// ValueGenerator.int(in: 1...10).map(Counter.Action.addButtonTapped)
  /// ```
  public func map<NewValue>(
    _ transform: @escaping @Sendable (Value) -> NewValue
  ) -> ValueGenerator<NewValue> {
    ValueGenerator<NewValue> { random in run(&random).map(transform) }
  }

  /// Always `value`; it does not shrink.
  ///
  /// ```swift
  /// ValueGenerator<Counter.Action>.constant(.incrementButtonTapped)
  /// ```
  public static func constant(_ value: @autoclosure @escaping @Sendable () -> Value) -> Self {
    Self { _ in Shrinkable(value()) }
  }

  /// A value of one of `choices`, chosen with the probability of its weight; it shrinks within
  /// the generator it came from.
  ///
  /// ```swift
  /// ValueGenerator<Search.Action>.weighted([
  ///   (4, .element(of: ["a", "ab", "abc"]).map(Search.Action.queryChanged)),
  ///   (1, .constant(.clearButtonTapped)),
  /// ])
  /// ```
  ///
  /// A choice with a weight of zero or less is never chosen; at least one must weigh more.
  public static func weighted(_ choices: [(Int, ValueGenerator<Value>)]) -> Self {
    let choices = choices.filter { $0.0 > 0 }
    precondition(!choices.isEmpty, "A weighted generator needs a choice with a positive weight.")
    let total = choices.reduce(0) { $0 + $1.0 }
    return Self { random in
      var pick = random.next(below: total)
      for (weight, generator) in choices {
        if pick < weight { return generator.run(&random) }
        pick -= weight
      }
      return choices[choices.count - 1].1.run(&random)
    }
  }

  /// A value of one of `generators`, each as likely as the others.
  ///
  /// ```swift
  /// ValueGenerator<Counter.Action>.oneOf(
  ///   .cases(of: Counter.Button.self).map(Counter.Action.tapped),
  ///   .int(in: 1...10).map(Counter.Action.addButtonTapped))
  /// ```
  public static func oneOf(_ generators: ValueGenerator<Value>...) -> Self {
    weighted(generators.map { (1, $0) })
  }
}

// NB: the generators of payloads are members of every `ValueGenerator`, returning their own
// type, so that an implicit member chain starts from them where an action generator is expected:
// `.int(in: 1...5).map(Action.add)`.
extension ValueGenerator {
  /// One of `elements`, each as likely; it shrinks toward the first.
  ///
  /// ```swift
  /// let names = ValueGenerator<String>.element(of: ["", "milk", "eggs"])
  /// let actions: ActionGenerator<Todos.Action> = .element(of: ["milk"]).map(Todos.Action.add)
  /// ```
  public static func element<Element: Sendable>(of elements: [Element]) -> ValueGenerator<Element> {
    precondition(!elements.isEmpty, "An element generator needs at least one element.")
    return ValueGenerator<Int>.int(in: 0...(elements.count - 1)).map { elements[$0] }
  }

  /// One of the cases of `type`, each as likely; it shrinks toward the first case.
  ///
  /// ```swift
  /// enum Action: CaseIterable { case increment, decrement, reset }
  /// let actions: ActionGenerator<Action> = .cases(of: Action.self)
  /// ```
  public static func cases<Case: CaseIterable & Sendable>(
    of type: Case.Type
  ) -> ValueGenerator<Case> {
    let all = Array(Case.allCases)
    precondition(!all.isEmpty, "\(Case.self) has no cases.")
    return ValueGenerator<Int>.int(in: 0...(all.count - 1)).map { all[$0] }
  }

  /// An integer in `range`, each as likely; it shrinks toward the lower bound.
  ///
  /// ```swift
  /// let amounts = ValueGenerator<Int>.int(in: -5...5)
  /// let actions: ActionGenerator<Counter.Action> = .int(in: 1...5).map(Counter.Action.add)
  /// ```
  public static func int(in range: ClosedRange<Int>) -> ValueGenerator<Int> {
    let low = range.lowerBound
    let width = UInt64(bitPattern: Int64(range.upperBound &- low)) &+ 1
    return ValueGenerator<Int> { random in
      let offset: UInt64 = width == 0 ? random.next() : random.next() % width
      return Shrinkable.integer(low &+ Int(truncatingIfNeeded: offset), toward: low)
    }
  }

  /// True or false, each as likely; true shrinks to false.
  public static var bool: ValueGenerator<Bool> {
    ValueGenerator<Bool> { random in
      random.chance(1, in: 2) ? Shrinkable(true, shrink: { _ in [false] }) : Shrinkable(false)
    }
  }
}

/// Shorthand for the generator of a feature's actions: `ActionGenerator<Counter.Action>`.
public typealias ActionGenerator<Action> = ValueGenerator<Action>
