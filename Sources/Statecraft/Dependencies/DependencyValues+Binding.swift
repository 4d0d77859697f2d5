import Dependencies

extension DependencyValues {
  /// Runs `body` with `values` as the dependencies in force: inside
  /// `DependencyValues.$_current.withValue(values)`, unless they are already in force.
  ///
  /// NB: a task-local binding costs a lock, an allocation and two thread-local lookups in the
  /// concurrency runtime: binding at every action made a plain send about 5× slower (the binding
  /// was 30 % of its profile). Most sends come from where the store's values are already in force
  /// (a store made outside `withDependencies` and sent to from outside it, or an effect of the
  /// store sending back), and those skip it. Reading the task-local is cheap, and comparing is
  /// a comparison of two words: values whose storage is the same memory are the same values.
  @inline(__always)
  static func withValuesInForce<Result>(
    _ values: DependencyValues, _ body: () throws -> Result
  ) rethrows -> Result {
    if _current.isIdentical(to: values) { return try body() }
    return try $_current.withValue(values, operation: body)
  }

  /// Whether `self` and `other` hold the same storage (the same references, bit for bit), and
  /// so the same values. Values that are equal but were built apart compare as different, which
  /// only costs a binding.
  @inline(__always)
  func isIdentical(to other: DependencyValues) -> Bool {
    withUnsafeBytes(of: self) { mine in
      withUnsafeBytes(of: other) { theirs in
        guard mine.count == theirs.count else { return false }
        // NB: word by word (the values are two references), then any bytes left.
        let words = mine.count / MemoryLayout<UInt>.size
        for word in 0..<words {
          let offset = word * MemoryLayout<UInt>.size
          if mine.loadUnaligned(fromByteOffset: offset, as: UInt.self)
            != theirs.loadUnaligned(fromByteOffset: offset, as: UInt.self)
          {
            return false
          }
        }
        for byte in (words * MemoryLayout<UInt>.size)..<mine.count where mine[byte] != theirs[byte]
        {
          return false
        }
        return true
      }
    }
  }
}
