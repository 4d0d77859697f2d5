import Foundation
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import StatecraftInspector

/// A page's messages arrive in the order the session sends them, a place held for messages
/// written later (a long timeline, off the main actor) included; and every string a message
/// quotes reads back as itself.
@MainActor
@Suite struct PageOutboxTests {
  @Test func messagesSentAfterAHeldPlaceWaitForItToBeFilled() throws {
    let channel = EmbeddedChannel()
    defer { _ = try? channel.finish() }
    let page = PageConnection(channel: channel)
    page.send("a")
    let first = page.hold()
    page.send("b")
    let second = page.hold()
    page.send("c")
    #expect(try texts(channel) == ["a"])
    page.fill(second, with: ["x1", "x2"])
    #expect(try texts(channel) == [])
    page.fill(first, with: ["y"])
    #expect(try texts(channel) == ["y", "b", "x1", "x2", "c"])
    page.send("d")
    #expect(try texts(channel) == ["d"])
    // NB: a place filled twice sends nothing the second time.
    page.fill(first, with: ["again"])
    #expect(try texts(channel) == [])
  }

  @Test func everyQuotedStringReadsBackAsItself() throws {
    let strings = [
      "", "plain", "Say \"hi\"", #"back\slash"#, "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}",
      "日本 🎉", "\u{2028}\u{2029}", "\u{202E}reversed", "–—…", "</script>",
    ]
    for string in strings {
      let quoted = JSONText.quoted(string)
      let read = try JSONSerialization.jsonObject(
        with: Data(quoted.utf8), options: .fragmentsAllowed)
      #expect(read as? String == string, "\(quoted)")
      #expect(!quoted.contains("\u{2028}") && !quoted.contains("\u{2029}"))
    }
  }

  private func texts(_ channel: EmbeddedChannel) throws -> [String] {
    var texts: [String] = []
    while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
      texts.append(String(decoding: frame.unmaskedData.readableBytesView, as: UTF8.self))
    }
    return texts
  }
}
