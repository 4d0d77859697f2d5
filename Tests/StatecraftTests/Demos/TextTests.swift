import DemoTerminal
import Testing

extension Engine {
  /// Escaping, measuring and cutting of the text the demos show.
  @Suite struct TextTests {
    @Test func controlCharactersAreShownEscapedNeverWritten() {
      #expect(Text.escaped("\u{1B}]0;PWNED\u{07}") == "\\e]0;PWNED^G")
      #expect(Text.escaped("\u{1B}[2J\u{1B}[5;1H") == "\\e[2J\\e[5;1H")
      #expect(Text.escaped("a\nb\tc\rd\u{08}\u{00}\u{7F}") == "a\\nb\\tc^Md^H^@^?")
      #expect(Text.escaped("csi \u{9B}2J") == "csi \\u{9B}2J")
      #expect(Text.escaped("\u{202E}evil") == "\\u{202E}evil")
      #expect(Text.escaped("one\ntwo\u{1B}", keepingLineBreaks: true) == "one\ntwo\\e")
    }

    @Test func printableTextOfAnyScriptIsShownAsItIs() {
      for text in ["Buy milk", "世界", "🎉 party", "e\u{301}", "👩‍👩‍👧", "\u{FFFD}", "a\\nb"] {
        #expect(Text.escaped(text) == text)
      }
      #expect(Text.escaped(String(decoding: [0x61, 0xFF, 0x62], as: UTF8.self)) == "a\u{FFFD}b")
    }

    @Test func widthsAreDisplayCells() {
      #expect(Text.cellWidth("abc") == 3)
      #expect(Text.cellWidth("世界") == 4)
      #expect(Text.cellWidth("🎉") == 2)
      #expect(Text.cellWidth("e\u{301}") == 1)
      #expect(Text.cellWidth("\\e[2J") == 5)
    }

    @Test func textIsCutByCellsNeverInsideACharacter() {
      #expect(Text.fit("Statecraft", width: 5) == "State")
      #expect(Text.fit("世界abc", width: 3) == "世")
      #expect(Text.fit("世界abc", width: 5) == "世界a")
      #expect(Text.fit("🎉🎉", width: 3) == "🎉")
      #expect(Text.fit("e\u{301}x", width: 1) == "e\u{301}")
      #expect(Text.fit("🎉", width: 1) == "")
      #expect(Text.fit("anything", width: 0) == "")
    }

    @Test func aStyledRowIsEscapedAndCutKeepingItsStyles() {
      let row = Text.bold("ab") + "\u{1B}[2J" + Text.inverse("世界")
      let fitted = row.fitted(to: 7)
      #expect(fitted.plain == "ab\\e[2J")
      #expect(fitted.runs.first == StyledText.Run(text: "ab", style: .bold))
      #expect(row.fitted(to: 10).plain == "ab\\e[2J世")
      #expect(Text.cellWidth(row.fitted(to: 10).plain) <= 10)
    }

    let todoHints = [
      "↑↓ move", "space toggle", "a add", "e edit", "d delete", "f filter", "/ search", "u undo",
      "r redo", "s sync", "c cancel sync", "l log",
    ]

    @Test func keyHintsWrapAndAlwaysKeepTheQuitKey() {
      let at80 = KeyHints.lines(todoHints, quit: "q quit", width: 80, maxLines: 3)
      #expect(at80.count == 2)
      #expect(at80.allSatisfy { Text.cellWidth($0) <= 80 })
      #expect(at80.last?.hasSuffix("q quit") == true)
      #expect(at80.joined(separator: " · ").contains("l log"))

      let at40 = KeyHints.lines(todoHints, quit: "q quit", width: 40, maxLines: 2)
      #expect(at40.count == 2)
      #expect(at40.allSatisfy { Text.cellWidth($0) <= 40 })
      #expect(at40.last?.hasSuffix("q quit") == true)

      #expect(
        KeyHints.lines(todoHints, quit: "q quit", width: 40, maxLines: 1) == [
          "↑↓ move · space toggle · a add · q quit"
        ])
      #expect(KeyHints.lines(["↑↓ move"], quit: "q quit", width: 4, maxLines: 1) == ["q quit"])
    }

    @Test func aLongMessageWrapsByCellsAndEndsInAnEllipsisWhenCut() {
      #expect(
        Text.wrap("Saved to /tmp/todos.conflict-1.json instead.", width: 20, maxLines: 3)
          == ["Saved to /tmp/todos.", "conflict-1.json ", "instead."])
      #expect(
        Text.wrap("one two three four five six", width: 10, maxLines: 2)
          == ["one two ", "three fou…"])
      #expect(Text.wrap("世界世界世界", width: 5, maxLines: 3) == ["世界", "世界", "世界"])
      #expect(Text.wrap("a\u{1B}]0;x\u{07}", width: 4, maxLines: 3) == ["a\\e]", "0;x^", "G"])
      #expect(Text.wrap("", width: 10, maxLines: 3) == [])
      #expect(Text.wrap("abc", width: 1, maxLines: 5) == ["a", "b", "c"])
    }

    @Test func aLongTextIsCutBeforeItIsEscapedYetFillsTheRow() {
      let long = String(repeating: "é世\u{1B}", count: 100_000)
      #expect(Text.start(of: long, width: 10).count == 84)
      #expect(Text.end(of: long, width: 10).count == 84)
      #expect(Text.start(of: "short", width: 10) == "short")
      let row = StyledText(long).fitted(to: 10)
      #expect(row.plain == "é世\\eé世\\e")
      #expect(Text.cellWidth(row.plain) <= 10)
      let prompt = LineEditor(prompt: "Edit", text: long + "end").row(width: 20)
      #expect(prompt.plain == "Edit: …世\\eé世\\eend ")
    }
  }
}
