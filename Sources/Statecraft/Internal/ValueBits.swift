// Owns naming a value by its type and its bits, for the tools that read many steps of a state
// (the Inspector's encoder, the test generator): a step's state shares almost all of its storage
// with the step before it (copy-on-write), so a part that did not change has the same bits at
// both steps, and what was learned of it once (its tree, its source, that it holds no shared
// value) holds again, found in a hash table rather than by reading the part.
//
// Two values of one type with the same bits are the same value as long as nothing under them is
// read through a reference whose contents can change: a class instance, or a shared value, which
// a tool reads as it was at each step. Each tool checks for those itself. A tool that remembers
// a value by its bits keeps the value too, so that its storage is never freed and reused for
// different contents while the bits are remembered.

/// A value's type and bits, for values of at most 64 bytes.
package struct ValueBits: Hashable {
  private let type: ObjectIdentifier
  private let size: Int
  private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
    0, 0, 0, 0, 0, 0, 0, 0
  )

  /// Nil for a type larger than 64 bytes (a struct of many fields: its fields have bits of their
  /// own).
  package init?<T>(_ value: T) {
    let size = MemoryLayout<T>.size
    guard size <= 64 else { return nil }
    self.type = ObjectIdentifier(T.self)
    self.size = size
    withUnsafeMutableBytes(of: &words) { destination in
      withUnsafeBytes(of: value) { destination.copyMemory(from: $0) }
    }
  }

  /// The bits of the value `value` holds (not of the `Any` that holds it).
  package static func of(_ value: Any) -> ValueBits? {
    func open<T>(_ value: T) -> ValueBits? { ValueBits(value) }
    return _openExistential(value, do: open)
  }

  package static func == (lhs: ValueBits, rhs: ValueBits) -> Bool {
    lhs.type == rhs.type && lhs.size == rhs.size && lhs.words.0 == rhs.words.0
      && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
      && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
      && lhs.words.5 == rhs.words.5 && lhs.words.6 == rhs.words.6
      && lhs.words.7 == rhs.words.7
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(words.0)
    hasher.combine(words.1)
    hasher.combine(words.2)
    hasher.combine(words.3)
    hasher.combine(words.4)
    hasher.combine(words.5)
    hasher.combine(words.6)
    hasher.combine(words.7)
  }
}
