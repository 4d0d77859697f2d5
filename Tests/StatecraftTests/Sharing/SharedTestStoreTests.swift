import Clocks
import Foundation
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct SharedTestStoreTests {
    @Test func aSharedChangeIsAssertedLikeState() async {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.increment) { $0.count.wrappedValue = 1 }
      await store.send(.increment) { $0.count.wrappedValue += 1 }
      #expect(store.state.count.wrappedValue == 2)
    }

    @Test func anUnassertedSharedChangeFails() async {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await withKnownIssue {
        await store.send(.increment)
      } matching: {
        $0.description.contains("A shared value changed, but the test asserted no change")
      }
    }

    @Test func aWrongSharedAssertionFails() async {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await withKnownIssue {
        await store.send(.increment) { $0.count.wrappedValue = 5 }
      } matching: {
        $0.description.contains("A shared value does not match the assertion")
      }
    }

    @Test func aSharedFieldIsAssertedThroughItsKeyPath() async {
      let store = TestStore(
        initialState: TwoEditors.State(settings: Shared(value: Settings()))
      ) { TwoEditors() }
      await store.send(.first(.setTheme("dark"))) {
        $0.first.edits = 1
        $0.second.settings.theme = "dark"
      }
      await withKnownIssue {
        await store.send(.second(.setFontSize(9))) { $0.second.edits = 1 }
      } matching: {
        $0.description.contains("fontSize")
      }
    }

    @Test func aChangeByAnEffectsLockedMutationIsAssertedWhereItIsReceived() async {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementInEffect)
      await store.receive(.incremented) { $0.count.wrappedValue = 1 }
    }

    @Test func aSharedChangeLeftUnassertedAtTheEndFails() async {
      let counter = Shared(value: 0)
      let store = TestStore(initialState: SharedCounter.State(count: counter)) { SharedCounter() }
      counter.withLock { $0 += 1 }
      await withKnownIssue {
        await store.finish()
      } matching: {
        $0.description.contains("asserted no change")
      }
    }

    @Test func aNonExhaustiveStoreLetsSharedChangesGoUnasserted() async {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      store.exhaustivity = .off
      await store.send(.increment)
      await store.send(.increment) { $0.count.wrappedValue = 2 }
    }

    @Test func theTestStoresOfOneTestShareTheTestsStorage() async {
      let first = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      let second = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await first.send(.increment) { $0.count.wrappedValue = 1 }
      #expect(second.state.count.wrappedValue == 1)
    }

    @Test func aTestStoreGivenAStorageOfItsOwnKeepsToIt() async {
      let first = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      let second = TestStore(initialState: SharedCounter.State()) {
        SharedCounter()
      } withDependencies: {
        $0.sharedStorage = .inMemory()
      }
      await first.send(.increment) { $0.count.wrappedValue = 1 }
      #expect(second.state.count.wrappedValue == 0)
    }

    @Test func aFileKeyInATestStoreTouchesNoFileAndIsNotReported() async throws {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("statecraft-\(UUID().uuidString)/value.json")
      struct Feature: Reducer {
        struct State: Equatable {
          var value: Shared<Int>
        }
        func reduce(into state: inout State, action: Int) -> Effect<Int> {
          state.value.wrappedValue = action
          return .none
        }
      }
      let store = TestStore(
        initialState: Feature.State(value: Shared(wrappedValue: 0, .fileStorage(url)))
      ) { Feature() }
      await store.send(7) { $0.value.wrappedValue = 7 }
      SharedFile.flushAll()
      #expect(!FileManager.default.fileExists(atPath: url.path))
    }
  }
}
