// Owns an array stored in chunks, so that a change to a copy copies one chunk, and two arrays
// can share the chunks they have in common. Two users:
// - a timeline's steps: the session holds its timeline while a long recomputation holds a copy
//   of it across its slices (a view, a skip, a continue); with one array, the first step the app
//   recorded meanwhile copied every step (20,000 steps: about 15 ms of the main actor), and so
//   did a skip that marked its step in a copy at each round;
// - a JSON array of a state's tree (`JSONList`): the next version of a list (an undo stack's list
//   with one more todo) shares the chunks of the last version's tree, where each version's tree
//   was an array of its own (at 20,000 todos, a hundred lists of 20,000 nodes each, per tree).

/// A random-access collection of `Element`s, stored in chunks of `chunkSize`: appending,
/// changing one element or cutting the end of a copy copies the chunk it touches and the list
/// of chunks, never the other chunks' elements.
///
/// Every chunk but the last holds `chunkSize` elements, counting the `start` elements at the
/// front of the first chunk that were removed (`removeFirst(_:)` drops whole chunks only, so up
/// to `chunkSize - 1` removed elements stay in memory until their chunk goes).
struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
  static var chunkSize: Int { 1_024 }

  private var chunks: [[Element]] = []
  /// The elements removed from the front of the first chunk.
  private var start = 0
  private(set) var count = 0

  init() {}

  init(_ elements: some Sequence<Element>) {
    append(contentsOf: elements)
  }

  /// The `count` elements of `other` from `offset`, sharing `other`'s chunks that they fill
  /// whole when they start a chunk of `other`.
  init(_ count: Int, of other: Self, from offset: Int) {
    precondition(offset >= 0 && count >= 0 && offset + count <= other.count, "out of range")
    let first = offset + other.start
    guard first % Self.chunkSize == 0 else {
      self.init(other[offset..<(offset + count)])
      return
    }
    self.init()
    let whole = count / Self.chunkSize
    chunks = Array(other.chunks[(first / Self.chunkSize)..<(first / Self.chunkSize + whole)])
    self.count = whole * Self.chunkSize
    append(contentsOf: other[(offset + self.count)..<(offset + count)])
  }

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  // NB: `_read` and `_modify`, so that reading one field of an element (a step's summary)
  // doesn't copy the element (and retain its actions), and a change is made in place.
  subscript(position: Int) -> Element {
    _read {
      precondition(position >= 0 && position < count, "index out of range")
      let index = position + start
      yield chunks[index / Self.chunkSize][index % Self.chunkSize]
    }
    _modify {
      precondition(position >= 0 && position < count, "index out of range")
      let index = position + start
      yield &chunks[index / Self.chunkSize][index % Self.chunkSize]
    }
  }

  mutating func append(_ element: Element) {
    if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
      var chunk: [Element] = []
      chunk.reserveCapacity(Self.chunkSize)
      chunks.append(chunk)
    }
    chunks[chunks.count - 1].append(element)
    count += 1
  }

  mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// Removes the first `k` elements.
  mutating func removeFirst(_ k: Int) {
    precondition(k >= 0 && k <= count, "can't remove more elements than the collection has")
    guard k < count else { return removeAll() }
    start += k
    count -= k
    let dropped = start / Self.chunkSize
    chunks.removeFirst(dropped)
    start -= dropped * Self.chunkSize
  }

  /// Removes the elements from `position` to the end.
  mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
    let position = range.lowerBound
    precondition(position >= 0 && position <= count, "index out of range")
    guard position > 0 else { return removeAll() }
    let index = position + start
    let kept = (index - 1) / Self.chunkSize + 1
    chunks.removeSubrange(kept...)
    chunks[kept - 1].removeSubrange((index - (kept - 1) * Self.chunkSize)...)
    count = position
  }

  /// The number of elements at the start of `self` and `other` that are equal, skipping the
  /// chunks they share without reading them.
  func commonPrefixCount(with other: Self, by areEqual: (Element, Element) -> Bool) -> Int {
    var prefix = 0
    let shortest = Swift.min(count, other.count)
    if start == other.start {
      // NB: a chunk is shared only whole, so the chunks are aligned; the last may be shorter.
      var chunk = 0
      while chunk < Swift.min(chunks.count, other.chunks.count),
        chunks[chunk].count == other.chunks[chunk].count, sharesChunk(chunk, with: other)
      {
        chunk += 1
      }
      prefix = Swift.max(Swift.min(chunk * Self.chunkSize - start, shortest), 0)
    }
    while prefix < shortest, areEqual(self[prefix], other[prefix]) { prefix += 1 }
    return prefix
  }

  /// Whether chunk `index` of `self` and of `other` are the same storage.
  func sharesChunk(_ index: Int, with other: Self) -> Bool {
    chunks[index].withUnsafeBufferPointer { mine in
      other.chunks[index].withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
    }
  }

  mutating func removeAll() {
    chunks = []
    start = 0
    count = 0
  }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: ExpressibleByArrayLiteral {
  init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension ChunkedArray: Equatable where Element: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.count == rhs.count && lhs.commonPrefixCount(with: rhs, by: ==) == lhs.count
  }
}
