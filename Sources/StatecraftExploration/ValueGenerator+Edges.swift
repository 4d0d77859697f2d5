// Owns the edge-biased generators: values a user rarely types but an inspector's send box, a
// replayed recording or a file can hold (out of range, huge, empty, very long, unprintable).

extension ValueGenerator {
  /// An integer of `typical` most of the time, and otherwise one of its edges
  /// (``edgeIntegers(of:)``): its bounds, one past each, zero, `Int.min` and `Int.max`, or any
  /// `Int` at all.
  ///
  /// ```swift
  /// let actions: ActionGenerator<Todos.Action> = .weighted([
  ///   (2, .edgeBiasedInt(in: 0...4).map { Todos.Action.toggle(id: $0) }),
  ///   (1, .edgeBiasedInt(in: 0...100).map { Todos.Action.syncProgressed(percent: $0) }),
  /// ])
  /// ```
  ///
  /// Use it for every number that reaches a feature from outside its own effects: an id, an
  /// index, a count or a percent that an inspector's send box or a recording can carry. A
  /// feature that assumes its range traps (a negative count, an index out of bounds, an
  /// overflow) or breaks an invariant, and exploration reports it. One value in three is an
  /// edge. A value shrinks toward the lower bound of `typical`, so an out-of-range failure
  /// shrinks to the nearest value past the range that still fails.
  public static func edgeBiasedInt(in typical: ClosedRange<Int>) -> ValueGenerator<Int> {
    let edges = edgeIntegers(of: typical)
    let low = typical.lowerBound
    let inRange = ValueGenerator<Int>.int(in: typical)
    return ValueGenerator<Int> { random in
      guard random.chance(1, in: 3) else { return inRange.run(&random) }
      // NB: one edge draw in eight is any `Int`, for the values no list names.
      let value =
        random.chance(1, in: 8)
        ? Int(truncatingIfNeeded: random.next()) : edges[random.next(below: edges.count)]
      return Shrinkable.integer(value, toward: low)
    }
  }

  /// The edges of `typical`: its bounds and the integers just past them, -1, 0 and 1,
  /// `Int.min` and `Int.max`, each once, in that order.
  ///
  /// ```swift
  /// ValueGenerator<Int>.edgeIntegers(of: 0...100)
  /// // [0, 100, -1, 101, 1, Int.min, Int.max]
  /// ```
  public static func edgeIntegers(of typical: ClosedRange<Int>) -> [Int] {
    let low = typical.lowerBound
    let high = typical.upperBound
    var edges = [low, high]
    if low > .min { edges.append(low - 1) }
    if high < .max { edges.append(high + 1) }
    edges += [-1, 0, 1, .min, .max]
    var seen = Set<Int>()
    return edges.filter { seen.insert($0).inserted }
  }

  /// One of `typical` most of the time, and otherwise an edge (``edgeStrings(longerThan:)``):
  /// empty or blank text, text one character past `limit`, very long text, control characters
  /// and escape sequences, bidirectional overrides, wide and combining characters.
  ///
  /// ```swift
  /// let actions: ActionGenerator<Todos.Action> = .weighted([
  ///   (3, .edgeBiasedString(from: ["Milk", "Eggs"], longerThan: Todo.titleLimit)
  ///     .map(Todos.Action.add)),
  ///   (1, .edgeBiasedString(from: ["", "mi"]).map(Todos.Action.searchChanged)),
  /// ])
  /// ```
  ///
  /// Use it for every text that reaches a feature from outside: what is typed or pasted, what a
  /// file or a recording holds. The edges find the title a view cuts in the middle of a
  /// character, the limit that is off by one, the escape sequence drawn raw. One value in three
  /// is an edge. A string shrinks toward the first of `typical`, then toward shorter starts of
  /// itself.
  ///
  /// - Parameters:
  ///   - typical: What a person usually types; at least one.
  ///   - limit: The most characters the feature takes, if it has a limit: an edge is one
  ///     character longer. Without one, 1,000.
  public static func edgeBiasedString(
    from typical: [String], longerThan limit: Int = 1_000
  ) -> ValueGenerator<String> {
    precondition(!typical.isEmpty, "An edge-biased string generator needs a typical string.")
    let edges = edgeStrings(longerThan: limit)
    let first = typical[0]
    @Sendable func shrink(_ text: String) -> [String] {
      var candidates: [String] = []
      if first.count < text.count { candidates.append(first) }
      if !text.isEmpty, !candidates.contains("") { candidates.append("") }
      if text.count > 1 {
        candidates += [String(text.prefix(text.count / 2)), String(text.dropLast())]
      }
      var seen = Set<String>()
      return candidates.filter { $0.count < text.count && seen.insert($0).inserted }
    }
    return ValueGenerator<String> { random in
      let pool = random.chance(1, in: 3) ? edges : typical
      return Shrinkable(pool[random.next(below: pool.count)], shrink: shrink)
    }
  }

  /// Text a feature meets at its edges, whatever it expects: empty and blank text, text one
  /// character past `limit` and text 64 KiB longer still, line breaks, terminal escape sequences
  /// and other control characters, a bidirectional override, wide characters (CJK, emoji, a
  /// family emoji of seven scalars), stacked combining marks, the replacement character, and
  /// text that looks like a number or like JSON.
  ///
  /// ```swift
  /// for title in ValueGenerator<String>.edgeStrings(longerThan: Todo.titleLimit) {
  ///   store.send(.add(title))
  /// }
  /// ```
  public static func edgeStrings(longerThan limit: Int = 1_000) -> [String] {
    let past = max(0, limit) + 1
    return [
      "",
      " ",
      " \t\n ",
      String(repeating: "a", count: past),
      String(repeating: "é", count: past),
      String(repeating: "long text ", count: (past + 65_536) / 10 + 1),
      "line one\nline two\r\n",
      "\u{1B}[2J\u{1B}[H\u{1B}]0;title\u{07}",
      "nul\0bell\u{07}del\u{7F}csi\u{9B}",
      "\u{202E}gnp.exe",
      "漢字かな한글🙂",
      "👩‍👩‍👧‍👦",
      "e\u{301}\u{302}\u{303}\u{304}",
      "\u{FFFD}",
      "-1",
      "{\"_0\":110}",
    ]
  }
}
