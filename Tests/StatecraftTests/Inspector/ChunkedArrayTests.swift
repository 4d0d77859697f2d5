import Testing

@testable import StatecraftInspector

extension Engine {
  /// The timeline's steps are stored in chunks: every operation the timeline uses reads as an
  /// array's would, and a change to a copy copies the chunk it touches only.
  @Suite struct ChunkedArrayTests {
    @Test func everyOperationMatchesAnArrays() {
      var generator = SplitMix64(seed: 41)
      var chunked = ChunkedArray<Int>()
      var model: [Int] = []
      var next = 0
      for round in 0..<4_000 {
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<60:
          let count = Int.random(in: 0...700, using: &generator)
          let added = Array(next..<(next + count))
          next += count
          chunked.append(contentsOf: added)
          model.append(contentsOf: added)
        case 60..<70 where !model.isEmpty:
          let k = Int.random(in: 0...model.count, using: &generator)
          chunked.removeFirst(k)
          model.removeFirst(k)
        case 70..<78:
          let position = Int.random(in: 0...model.count, using: &generator)
          chunked.removeSubrange(position...)
          model.removeSubrange(position...)
        case 78..<80:
          chunked.removeAll()
          model.removeAll()
        default:
          guard !model.isEmpty else { continue }
          let position = Int.random(in: 0..<model.count, using: &generator)
          chunked[position] = -round
          model[position] = -round
        }
        #expect(chunked.count == model.count, "round \(round)")
        guard Array(chunked) == model else {
          Issue.record("round \(round): the elements differ")
          return
        }
      }
      #expect(next > 100_000)
    }

    @Test func aChangeToACopyCopiesTheChunkItTouchesOnly() {
      let size = ChunkedArray<Int>.chunkSize
      let original = ChunkedArray(0..<(size * 3 + 5))
      var copy = original
      copy.append(-1)
      #expect(copy.sharesChunk(0, with: original))
      #expect(copy.sharesChunk(2, with: original))
      #expect(!copy.sharesChunk(3, with: original))

      copy[size + 1] = -2
      #expect(copy.sharesChunk(0, with: original))
      #expect(!copy.sharesChunk(1, with: original))
      #expect(copy.sharesChunk(2, with: original))
      #expect(Array(original) == Array(0..<(size * 3 + 5)))

      var cut = original
      cut.removeSubrange((size * 2 + 1)...)
      #expect(cut.count == size * 2 + 1)
      #expect(cut.sharesChunk(1, with: original))
      #expect(Array(cut) == Array(0..<(size * 2 + 1)))
    }
  }
}
