import DemoTerminal
import Testing

extension Engine {
  /// The decoding of what a terminal sends, whatever way it is split across reads.
  @Suite struct KeyDecoderTests {
    func bytes(_ text: String) -> [KeyDecoder.Input] { text.utf8.map { .byte($0) } }
    let down: [KeyDecoder.Input] = [.byte(0x1B), .byte(0x5B), .byte(0x42)]

    @Test func textControlsAndKeysFromNcursesAreKeys() {
      var decoder = KeyDecoder()
      #expect(decoder.decode(bytes("ab") + [.pause]) == [.character("a"), .character("b")])
      #expect(
        decoder.decode([.byte(0x0D), .byte(0x7F), .byte(0x03), .byte(0x09), .byte(0x0C), .pause])
          == [.enter, .backspace, .control("c"), .tab, .control("l")])
      #expect(decoder.decode([.key(.up), .key(.pageDown), .pause]) == [.up, .pageDown])
      #expect(
        decoder.decode(bytes("\u{1B}[1;5C\u{1B}[5~\u{1B}OH") + [.pause]) == [
          .right, .pageUp, .home,
        ])
    }

    @Test func aLoneEscapeIsTheEscapeKeyOnlyWhenNothingFollows() {
      var decoder = KeyDecoder()
      #expect(decoder.decode([.byte(0x1B)]) == [])
      #expect(decoder.decode([.pause]) == [.escape])
      #expect(decoder.decode([.byte(0x1B), .byte(0x1B), .pause]) == [.escape, .escape])
      // Alt-x and a sequence nobody knows are one harmless key, not an escape and letters.
      #expect(decoder.decode(bytes("\u{1B}x") + [.pause]) == [.unknown])
      #expect(
        decoder.decode(bytes("\u{1B}[15;5~\u{1B}[99;99;99z") + [.pause]) == [.unknown, .unknown])
    }

    @Test func anEscapeSequenceSplitAcrossReadsIsOneKey() {
      for split in 1..<3 {
        var decoder = KeyDecoder()
        #expect(decoder.decode(down.prefix(split)) == [])
        // NB: a pause after "ESC [" doesn't end the sequence; after a lone ESC it would.
        let rest = split == 1 ? Array(down.dropFirst(split)) : [.pause] + down.dropFirst(split)
        #expect(decoder.decode(rest + [.pause]) == [.down], "split after byte \(split)")
      }
    }

    @Test func aBurstOfThirtyArrowKeysSplitAnywhereIsThirtyArrows() {
      let burst = Array(repeating: down, count: 30).flatMap { $0 }
      for chunk in [1, 2, 5, 7, 13, 22, 64] {
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for start in stride(from: 0, to: burst.count, by: chunk) {
          keys += decoder.decode(burst[start..<min(start + chunk, burst.count)])
        }
        keys += decoder.decode([.pause])
        #expect(keys == Array(repeating: .down, count: 30), "chunks of \(chunk)")
        #expect(!keys.contains { $0.quits })
      }
    }

    @Test func aBracketedPasteIsOneKeyAcrossReads() {
      let pasted = "q quits? no.\nd e l\u{1B}[201 not the end; 世界"
      let input = bytes("\u{1B}[200~" + pasted + "\u{1B}[201~")
      for split in 1..<input.count {
        var decoder = KeyDecoder()
        // NB: a pause right after the first escape byte makes it the Escape key (as ncurses
        // waited for more and none came); anywhere else a pause is only a slow link.
        let pause: [KeyDecoder.Input] = split == 1 ? [] : [.pause]
        let keys =
          decoder.decode(input[..<split] + pause) + decoder.decode(input[split...] + [.pause])
        #expect(keys == [.paste(pasted)], "split at \(split)")
      }
    }

    @Test func multibyteTextSplitAcrossReadsIsDecodedWhole() {
      let text = "é世🎉ü"
      let input = bytes(text)
      for split in 1..<input.count {
        var decoder = KeyDecoder()
        let keys =
          decoder.decode(input[..<split] + [.pause]) + decoder.decode(input[split...] + [.pause])
        #expect(keys == text.map { .character($0) }, "split at \(split)")
      }
    }

    @Test func aCombiningMarkJoinsItsLetter() {
      var decoder = KeyDecoder()
      #expect(decoder.decode(bytes("e\u{301}") + [.pause]) == [.character("e\u{301}")])
    }

    @Test func invalidUTF8IsReadAsReplacementCharacters() {
      func decoded(_ raw: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(raw.map { .byte($0) } + [.pause])
      }
      #expect(
        decoded([0x61, 0xFF, 0x62]) == [.character("a"), .character("\u{FFFD}"), .character("b")])
      #expect(decoded([0xC3, 0x28]) == [.character("\u{FFFD}"), .character("(")])
      #expect(decoded([0xC0, 0xAF]) == [.character("\u{FFFD}"), .character("\u{FFFD}")])
      #expect(decoded([0xE4, 0xB8, 0x0D]) == [.character("\u{FFFD}"), .enter])
      var decoder = KeyDecoder()
      #expect(decoder.decode([.byte(0xE4), .key(.up)]) == [.character("\u{FFFD}"), .up])
    }

    @Test func textDecodesAsStringDecodingDoesHoweverItIsSplit() {
      // NB: a fixed generator, so that the test is the same on every run.
      var generator = SplitMix64(seed: 15)
      let pieces: [[UInt8]] = [
        Array("a".utf8), Array("é".utf8), Array("世".utf8), Array("🎉".utf8), [0xFF], [0xC3],
        [0xE4, 0xB8], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], Array("\u{301}".utf8),
      ]
      for _ in 0..<300 {
        var raw: [UInt8] = []
        for _ in 0..<Int.random(in: 1...12, using: &generator) {
          raw += pieces.randomElement(using: &generator)!
        }
        var decoder = KeyDecoder()
        var keys: [Key] = []
        var start = 0
        while start < raw.count {
          let end = min(raw.count, start + Int.random(in: 1...4, using: &generator))
          keys += decoder.decode(raw[start..<end].map { .byte($0) } + [.pause])
          start = end
        }
        // A character cut off at the very end is still waiting for its last bytes.
        keys += decoder.decode([.byte(0x20), .pause])
        let text = keys.map { key -> String in
          if case .character(let character) = key { return String(character) }
          return "?"
        }.joined()
        #expect(text == String(decoding: raw + [0x20], as: UTF8.self), "bytes \(raw)")
      }
    }
  }
}

/// A small deterministic random number generator for tests.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
