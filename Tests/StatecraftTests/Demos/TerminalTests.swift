import DemoTerminal
import Testing

extension Engine {
  @Suite struct TerminalTests {
    @Test func aLineCommandSplitsItsFirstWordFromTheRest() {
      let command = LineCommand("  edit 2   Walk the cat ")
      #expect(command.line == "edit 2   Walk the cat")
      #expect(command.word == "edit")
      #expect(command.rest == "2   Walk the cat")
      #expect(LineCommand("").word == "")
    }

    @Test func inputIsCutIntoLinesAndALineOverTheLimitIsSkippedWhole() {
      var splitter = LineSplitter(limit: 8)
      var lines = splitter.split(ArraySlice("add a\r\nadd 1234".utf8))
      // NB: the long line comes in pieces, as reads of a pipe bring it; only its length is kept.
      lines += splitter.split(ArraySlice("56789".utf8))
      lines += splitter.split(ArraySlice(String(repeating: "x", count: 1000).utf8))
      lines += splitter.split(ArraySlice("\n12345678\r\n\nlast".utf8))
      #expect(
        lines == [.text("add a"), .tooLong(bytes: 1013), .text("12345678"), .text("")])
      #expect(splitter.finish() == [.text("last")])
      #expect(splitter.finish() == [])
      var cut = LineSplitter(limit: 8)
      #expect(cut.split(ArraySlice("123456789".utf8)) == [])
      #expect(cut.finish() == [.tooLong(bytes: 9)])
      var invalid = LineSplitter(limit: 8)
      #expect(invalid.split([0x61, 0xFF, 0x0A]) == [.text("a\u{FFFD}")])
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

    @Test func aPasteGoesIntoALineEditorOnOneLine() {
      var editor = LineEditor(prompt: "New todo", text: "x ")
      #expect(editor.handle(.paste("two\r\nlines\tand q")) == .editing)
      #expect(editor.text == "x two lines and q")
    }

    @Test func aLongPromptShowsTheEndOfItsText() {
      let editor = LineEditor(prompt: "Search", text: "0123456789世界")
      let row = editor.row(width: 16)
      #expect(row.plain == "Search: …89世界 ")
      #expect(Text.cellWidth(row.plain) <= 16)
    }
  }
}
