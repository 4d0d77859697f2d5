import Dependencies
import Foundation
import StatecraftTesting
import Testing

@testable import Statecraft

/// The files of the features below: one list, as a TCA app keeps it.
private let itemsFile = URL(fileURLWithPath: "/statecraft-tests/items.json")

/// A list kept in a file, and a reducer that opens the same key later, as a detail screen does.
private struct ItemList: Reducer {
  struct State: Equatable {
    @Shared(.fileStorage(itemsFile)) var items: [String] = []
    var count = 0
  }
  enum Action: Equatable {
    case add(String)
    case countFromTheFile
    case addLater(String)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let item):
      state.$items.withLock { $0.append(item) }
      return .none
    case .countFromTheFile:
      // NB: a keyed value made while reducing, as a child made in a reducer does.
      @Shared(.fileStorage(itemsFile)) var items: [String] = []
      state.count = items.count
      return .none
    case .addLater(let item):
      return .run { _ in
        @Shared(.fileStorage(itemsFile)) var items: [String] = []
        $items.withLock { $0.append(item) }
      }
    }
  }
}

/// A screen whose state doesn't hold the list, and that clears it: a detail screen deleting.
private struct ListClearer: Reducer {
  struct State: Equatable { var cleared = false }
  enum Action: Equatable { case clear }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    @Shared(.fileStorage(itemsFile)) var items: [String] = []
    $items.withLock { $0 = [] }
    state.cleared = true
    return .none
  }
}

extension Engine {
  /// Where keyed shared values live is a dependency (`\.sharedStorage`): a test's body and its
  /// stores share the test's own storage, and a store carries the storage it was made with to
  /// every action and effect.
  @MainActor
  @Suite struct SharedStorageDependencyTests {
    @Test func aTestsBodyAndItsTestStoreShareTheKeyedValue() async {
      @Shared(.fileStorage(itemsFile)) var items = ["milk"]
      let store = TestStore(initialState: ItemList.State()) { ItemList() }
      #expect(store.state.items == ["milk"])
      await store.send(.add("eggs")) { $0.$items.withLock { $0.append("eggs") } }
      #expect(items == ["milk", "eggs"])
      await store.send(.countFromTheFile) { $0.count = 2 }
    }

    @Test func aListTheStateDoesntHoldIsAssertedThroughTheTestsOwnShared() async {
      @Shared(.fileStorage(itemsFile)) var items = ["milk"]
      let store = TestStore(initialState: ListClearer.State()) { ListClearer() }
      await withKnownIssue {
        await store.send(.clear) { $0.cleared = true }
      } matching: {
        $0.description.contains("A shared value changed, but the test asserted no change")
          && $0.description.contains("$items.withLock")
      }
    }

    @Test func aListTheStateDoesntHoldPassesWhenAssertedThroughTheTestsOwnShared() async {
      @Shared(.fileStorage(itemsFile)) var items = ["milk"]
      let store = TestStore(initialState: ListClearer.State()) { ListClearer() }
      await store.send(.clear) {
        $0.cleared = true
        $items.withLock { $0 = [] }
      }
      #expect(items == [])
    }

    @Test func aTestThatReadsAFileKeySeesNoOtherTestsValue() async {
      // NB: the test above writes this key, in parallel or before this one.
      @Shared(.fileStorage(itemsFile)) var items: [String] = []
      #expect(items == [])
      $items.withLock { $0 = ["mine"] }
    }

    @Test func aStoreKeepsTheStorageItWasMadeInForItsReducerAndEffects() async {
      let storage = SharedStorage.inMemory()
      let store = withSharedStorage(storage) {
        Store(initialState: ItemList.State()) { ItemList() }
      }
      await store.send(.add("tea")).finish()
      await store.send(.countFromTheFile).finish()
      #expect(store.count == 1)
      await store.send(.addLater("jam")).finish()
      let saved = withSharedStorage(storage) {
        Shared(wrappedValue: [String](), .fileStorage(itemsFile)).wrappedValue
      }
      #expect(saved == ["tea", "jam"])
      // NB: the test's own storage, in force here, never saw them.
      @Shared(.fileStorage(itemsFile)) var items: [String] = []
      #expect(items == [])
    }

    @Test func defaultFileStorageAndDefaultAppStorageAreTCAsSpellings() async {
      let files = SharedFileSystem.inMemory()
      let store = Store(initialState: ItemList.State()) {
        ItemList()
      } withDependencies: {
        $0.defaultFileStorage = files
      }
      await store.send(.addLater("salt")).finish()
      // NB: the effect's keyed value is the state's only if it was made in the store's storage.
      #expect(store.items == ["salt"])
    }
  }
}
