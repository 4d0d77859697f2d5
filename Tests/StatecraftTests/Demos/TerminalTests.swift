import DemoTerminal
import Testing

extension Engine {
  @Suite struct TerminalTests {
    @Test func keysAreParsedFromRawBytes() {
      let parser = KeyParser()
      #expect(parser.keys(in: Array("ab".utf8)) == [.character("a"), .character("b")])
      #expect(parser.keys(in: [0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42]) == [.up, .down])
      #expect(parser.keys(in: [0x1B]) == [.escape])
      #expect(
        parser.keys(in: [0x0D, 0x7F, 0x03, 0x09]) == [.enter, .backspace, .control("c"), .tab])
      #expect(parser.keys(in: Array("é".utf8)) == [.character("é")])
      #expect(parser.keys(in: [0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x43]) == [.right])
      #expect(parser.keys(in: [0x1B, 0x5B, 0x33, 0x7E]) == [.unknown])
    }

    @Test func theScreenRedrawsOnlyTheRowsThatChanged() {
      var screen = Screen()
      let first = screen.update(to: ["title", "one", "two"], width: 80)
      #expect(first.hasPrefix("\u{1B}[2J"))
      #expect(first.contains("\u{1B}[1;1Htitle") && first.contains("\u{1B}[3;1Htwo"))
      #expect(screen.update(to: ["title", "one", "two"], width: 80) == "")
      let second = screen.update(to: ["title", "ONE", "two"], width: 80)
      #expect(second == "\u{1B}[2;1HONE\u{1B}[0m\u{1B}[K")
      let shorter = screen.update(to: ["title", "ONE"], width: 80)
      #expect(shorter == "\u{1B}[3;1H\u{1B}[0m\u{1B}[K")
      screen.invalidate()
      #expect(screen.update(to: ["title", "ONE"], width: 80).contains("title"))
    }

    @Test func linesAreCutToTheWidthKeepingTheirStyles() {
      let styled = Text.bold("Statecraft") + " todos"
      #expect(Text.plain(styled) == "Statecraft todos")
      #expect(Text.plain(Text.fit(styled, width: 5)) == "State")
      #expect(Text.fit(styled, width: 5).hasPrefix("\u{1B}[1m"))
    }

    @Test func aLineCommandSplitsItsFirstWordFromTheRest() {
      let command = LineCommand("  edit 2   Walk the cat ")
      #expect(command.line == "edit 2   Walk the cat")
      #expect(command.word == "edit")
      #expect(command.rest == "2   Walk the cat")
      #expect(LineCommand("").word == "")
    }

    @Test func quittingKeysAndHintsForUnusedKeys() {
      let quitting: [Key] = [.character("q"), .control("c"), .control("d"), .escape]
      #expect(quitting.filter(\.quits) == quitting)
      #expect(!Key.character("a").quits)
      #expect(Key.character("z").unusedHint.hasPrefix("Unknown key 'z'."))
      #expect(Key.tab.unusedHint.hasPrefix("That key does nothing here."))
    }

    @Test func aLineEditorTypesDeletesSubmitsAndCancels() {
      var editor = LineEditor(prompt: "New todo")
      #expect(editor.handle(.character("h")) == .editing)
      #expect(editor.handle(.character("i")) == .editing)
      #expect(editor.handle(.backspace) == .editing)
      #expect(editor.handle(.up) == .editing)
      #expect(editor.text == "h")
      #expect(editor.handle(.enter) == .submitted("h"))
      #expect(editor.handle(.escape) == .cancelled)
    }
  }
}
