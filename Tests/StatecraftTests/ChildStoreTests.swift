import Clocks
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct ChildStoreTests {
    @Test func aChildStoreReadsThroughToTheRootAndForwardsItsActions() {
      let store = Store(initialState: CompositionTests.Parent.State()) {
        CompositionTests.Parent()
      }
      let child = store.scope(state: \.child, action: CompositionTests.Parent.Action.child)
      child.send(.increment)
      #expect(child.count == 1)
      #expect(store.child.count == 1)
      #expect(store.childCountSeenByParent == 1)
      store.send(.child(.setCount(5)))
      #expect(child.count == 5)
    }

    @Test func aScopeAskedForTwiceIsTheSameStore() {
      let store = Store(initialState: CompositionTests.Parent.State()) {
        CompositionTests.Parent()
      }
      func scope() -> StoreOf<Counter> {
        store.scope(state: \.child, action: CompositionTests.Parent.Action.child)
      }
      #expect(scope() === scope())
    }

    @Test func aChildStoreSendReturnsTheRootsTask() async {
      let store = Store(initialState: CompositionTests.Parent.State()) {
        CompositionTests.Parent()
      }
      let child = store.scope(state: \.child, action: CompositionTests.Parent.Action.child)
      await child.send(.incrementThrice).finish()
      #expect(store.child.count == 3)
    }

    @Test func anOptionalScopeIsNilWhileTheStateIsNil() {
      let store = Store(initialState: List.State()) { List(clock: TestClock()) }
      #expect(store.scope(state: \.detail, action: List.Action.detail) == nil)
      store.send(.showDetail(3))
      let detail = store.scope(state: \.detail, action: List.Action.detail)
      #expect(detail?.id == 3)
      detail?.send(.toggle)
      #expect(store.detail?.value == 1)
      store.send(.hideDetail)
      #expect(store.scope(state: \.detail, action: List.Action.detail) == nil)
      // A child store still held after dismissal keeps its last state.
      #expect(detail?.value == 1)
    }

    @Test func rowStoresScopedFromAnIdentifiedArray() {
      let store = Store(initialState: List.State()) { List(clock: TestClock()) }
      store.send(.addRow(1))
      store.send(.addRow(2))
      let row2 = store.scope(state: \.rows[id: 2], action: { .rows(.element(id: 2, action: $0)) })
      row2?.send(.toggle)
      #expect(store.rows.map(\.value) == [0, 1])
      #expect(row2?.value == 1)
    }
  }
}
