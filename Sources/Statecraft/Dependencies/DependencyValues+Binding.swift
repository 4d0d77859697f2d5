import Dependencies

/// The dependency values a root store reduces with, and whether they are the values in force,
/// found without copying either: no retain, no release, no binding on the path of a send made
/// where the store's values are in force (most sends: from a view, or from the store's own
/// effects). Values whose storage is the same memory are the same values; values equal but built
/// apart compare as different, which only costs a binding.
///
/// NB: a task-local binding costs a lock, an allocation and two thread-local lookups in the
/// concurrency runtime: binding at every action made a plain send about 5× slower (the binding
/// was 30 % of its profile), so the root binds only where other values are in force.
/// `DependencyValues._current`'s getter copies the values in force (two references: two
/// retains, two releases), and reading the store's values from the root copies them too: 14 %
/// of a plain send's profile, its largest share. The runtime function behind `TaskLocal.get()`
/// gives the address of the value bound, or nothing when none is bound (then the values in force
/// are the task-local's default, which never changes). It is the entry point the standard
/// library's `TaskLocal` calls, with the same signature; swift-dependencies offers no cheaper
/// way to ask whether other values are in force.
struct DependencyValuesInForce {
  /// The values' bits (two references today; room for four words).
  private var words: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
  /// Whether the values are the task-local's default: found at the first send made where no
  /// value is bound.
  private var areTheDefault: Bool?

  init(_ values: DependencyValues) {
    // NB: values larger than four words are never found in force: always bound.
    guard Self.fitsInWords else { return }
    withUnsafeMutableBytes(of: &words) { words in
      withUnsafeBytes(of: values) { words.copyMemory(from: $0) }
    }
  }

  /// Whether the values these bits were taken from (which the root keeps) are in force.
  @inline(__always)
  mutating func areInForce() -> Bool {
    guard Self.fitsInWords else { return false }
    guard let bound = taskLocalValueGet(Self.key) else {
      if let areTheDefault { return areTheDefault }
      // NB: nothing is bound, so `_current` is the default: compared once.
      let theDefault = DependencyValues._current
      let same = withUnsafeBytes(of: words) { mine in
        withUnsafeBytes(of: theDefault) { Self.sameBytes(mine, $0) }
      }
      areTheDefault = same
      return same
    }
    return withUnsafeBytes(of: words) { mine in
      Self.sameBytes(mine, UnsafeRawBufferPointer(start: bound, count: Self.size))
    }
  }

  private static let size = MemoryLayout<DependencyValues>.size
  private static let fitsInWords = size <= MemoryLayout<(UInt, UInt, UInt, UInt)>.size
  /// The task-local's key: its object, which lives as long as the process.
  private static let key = UInt(
    bitPattern: Unmanaged.passUnretained(DependencyValues.$_current).toOpaque())

  /// Whether the first `size` bytes of `mine` are those of `theirs`, word by word.
  @inline(__always)
  private static func sameBytes(_ mine: UnsafeRawBufferPointer, _ theirs: UnsafeRawBufferPointer)
    -> Bool
  {
    let count = min(size, theirs.count)
    guard mine.count >= count else { return false }
    let words = count / MemoryLayout<UInt>.size
    for word in 0..<words {
      let offset = word * MemoryLayout<UInt>.size
      if mine.loadUnaligned(fromByteOffset: offset, as: UInt.self)
        != theirs.loadUnaligned(fromByteOffset: offset, as: UInt.self)
      {
        return false
      }
    }
    for byte in (words * MemoryLayout<UInt>.size)..<count where mine[byte] != theirs[byte] {
      return false
    }
    return true
  }
}

/// The address of the value bound to the task-local `key` on the current task (or, outside a
/// task, thread), or nil when none is bound. See ``DependencyValuesInForce``.
@_silgen_name("swift_task_localValueGet")
private func _taskLocalValueGet(_ key: UnsafeRawPointer) -> UnsafeRawPointer?

@inline(__always)
private func taskLocalValueGet(_ key: UInt) -> UnsafeRawPointer? {
  _taskLocalValueGet(UnsafeRawPointer(bitPattern: key)!)
}
