import Foundation
import IdentifiedCollections
import Testing

@testable import StatecraftInspector

/// The encoder takes what a list shares with a list it met before from that list's tree; the
/// tree it builds is the one it would build from nothing, and the one `JSONEncoder` writes.
@Suite struct TreeEncoderTests {
  struct Item: Codable, Identifiable, Equatable {
    var id: Int
    var title: String
    var isDone = false
  }

  struct Lists: Codable {
    var items: IdentifiedArrayOf<Item> = []
    var history: [IdentifiedArrayOf<Item>] = []
    var plain: [Item] = []
  }

  /// Adds, removals at either end and in the middle, inserts, toggles and renames, with the
  /// lists before kept in a history, as an undo stack keeps them: each state encoded by one
  /// encoder across the steps, and by a new one. From an empty list, and from a list of a few
  /// chunks (`JSONList.chunkSize`), whose trees share their chunks with the last version's.
  @Test(arguments: [(0, 400), (2_100, 24)])
  func aListEditedStepByStepEncodesAsFromNothing(first: Int, steps: Int) throws {
    var generator = SplitMix64(seed: 41)
    var state = Lists()
    for id in 0..<first {
      state.items.append(Item(id: -1 - id, title: "Item number \(id) of the first list"))
    }
    let encoder = TreeEncoder()
    var nextID = 0
    for step in 0..<steps {
      state.history.append(state.items)
      if state.history.count > 6 { state.history.removeFirst() }
      let count = state.items.count
      switch count < 12 ? 0 : generator.next() % 6 {
      case 0:
        nextID += 1
        // NB: longer than a string held inline, so that copies of a title share storage.
        state.items.append(Item(id: nextID, title: "Item number \(nextID) of the list"))
      case 1: state.items.remove(at: Int(generator.next() % UInt64(count)))
      case 2:
        nextID += 1
        state.items.insert(
          Item(id: nextID, title: "Inserted item \(nextID)"),
          at: Int(generator.next() % UInt64(count)))
      case 3: state.items[Int(generator.next() % UInt64(count))].isDone.toggle()
      case 4: state.items.removeFirst()
      default: state.items[Int(generator.next() % UInt64(count))].title = "Renamed at \(step)"
      }
      state.plain = state.items.elements
      let tree = encoder.tree(of: state)
      // NB: a Bool each, so that a failure names the step rather than printing two trees.
      let asFromNothing = tree == TreeEncoder().tree(of: state)
      #expect(asFromNothing, "step \(step)")
      if step % 50 == 0 {
        let asJSONEncoderWrites = try tree == JSONValue(parsing: JSONEncoder.sorted.encode(state))
        #expect(asJSONEncoderWrites, "step \(step)")
      }
    }
  }

  /// A list that gained one element reads that element, and the list it grew from once.
  @Test func aListThatGainedAnElementReadsThatElement() {
    let encoder = TreeEncoder()
    var items: IdentifiedArrayOf<Item> = []
    for id in 1...1_000 { items.append(Item(id: id, title: "Item number \(id) of the list")) }
    _ = encoder.tree(of: items)
    var grown = items
    grown.append(Item(id: 1_001, title: "The last item of the list"))
    let before = encoder.valuesRead
    let tree = encoder.tree(of: grown)
    #expect(encoder.valuesRead - before == 2)
    #expect(tree == TreeEncoder().tree(of: grown))
  }

  /// An undo stack's lists, each the one before with an item added, share their trees: each
  /// list's tree holds the chunks of the one before it that it fills whole, so that a hundred
  /// versions of a long list cost about one list, not a hundred (at 20,000 todos, 48 MB a
  /// state's tree).
  @Test func theVersionsOfAListShareTheirTrees() throws {
    let size = JSONList.chunkSize
    var items: IdentifiedArrayOf<Item> = []
    for id in 1...(size * 3) { items.append(Item(id: id, title: "Item number \(id) of the list")) }
    var state = Lists()
    for id in 0..<20 {
      state.history.append(items)
      items.append(Item(id: -id, title: "Added item \(id) of the list"))
    }
    let tree = TreeEncoder().tree(of: state)
    guard case .array(let versions) = try #require(tree.child(.key("history"))) else {
      Issue.record("the history is not an array")
      return
    }
    #expect(versions.count == 20)
    for index in 1..<versions.count {
      guard case .array(let before) = versions[index - 1], case .array(let after) = versions[index]
      else {
        Issue.record("a version is not an array")
        return
      }
      #expect(after.count == before.count + 1)
      // NB: a Bool each, so that a failure names the version rather than printing two lists.
      for chunk in 0..<3 {
        let shares = after.sharesChunk(chunk, with: before)
        #expect(shares, "version \(index), chunk \(chunk)")
      }
    }
    let asJSONEncoderWrites = try tree == JSONValue(parsing: JSONEncoder.sorted.encode(state))
    #expect(asJSONEncoderWrites)
  }

  /// The encoder keeps what it met (so that its storage is not reused while its bits are
  /// remembered), but no longer than the next encoding: a long session's views met thousands of
  /// undo lists, each a megabyte, and kept them all.
  @Test func aListIsKeptNoLongerThanTheEncodingAfterTheOneThatMetIt() {
    let encoder = TreeEncoder()
    func items(from first: Int) -> [Item] {
      (first..<first + 100).map { Item(id: $0, title: "Item number \($0) of the list") }
    }
    var list = items(from: 0)
    list.reserveCapacity(1_000)
    _ = encoder.tree(of: Lists(plain: list))
    // NB: four lists of the type in each, so that the list is no longer one of the last met.
    for round in 1...2 {
      _ = encoder.tree(of: (1...4).map { items(from: round * 1_000 + $0 * 100) })
    }
    let address = list.withUnsafeBufferPointer(\.baseAddress)
    list.append(Item(id: -1, title: "Added in place"))
    // The buffer was not shared: appended in place, not copied.
    #expect(list.withUnsafeBufferPointer(\.baseAddress) == address)
  }

  /// A list of lists (an undo stack) is not kept to find the lists it shares with the next
  /// one: it would hold every list under it, a state's worth at each step it was met, while
  /// the lists under it are known lists of their own. Nor is anything else, once the encoder
  /// forgets the values it met (as a session has it do after each detail).
  @Test func aListOfListsIsNotKeptOnceTheValuesAreForgotten() {
    let encoder = TreeEncoder()
    var history: [IdentifiedArrayOf<Item>] = (0..<10).map { list in
      IdentifiedArray(
        uniqueElements: (0..<20).map { Item(id: $0, title: "Item number \($0) of list \(list)") })
    }
    history.reserveCapacity(100)
    let tree = encoder.tree(of: Lists(history: history))
    #expect(tree == TreeEncoder().tree(of: Lists(history: history)))
    encoder.forgetValues()
    #expect(encoder.rememberedValueCount == 0)
    let address = history.withUnsafeBufferPointer(\.baseAddress)
    history.append(IdentifiedArrayOf<Item>())
    // The buffer was not shared: appended in place, not copied.
    #expect(history.withUnsafeBufferPointer(\.baseAddress) == address)
  }
}

extension JSONEncoder {
  fileprivate static var sorted: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }
}
