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

    @Test func aStoreScopedThroughEverySpellingSendsItsActionsEmbeddedAtEachLevel() async {
      typealias Outer = CompositionTests.Outer
      typealias Parent = CompositionTests.Parent
      let store = Store(initialState: Outer.State()) { Outer() }
      let parent = store.scope(state: \.parent, action: Outer.Action.parent)
      let readOnly = parent.scope(state: \.self)
      let child = readOnly.scope(state: { $0.child }, action: Parent.Action.child)
      let count = child.scope(state: \.count, action: Counter.Action.setCount)
      count.send(5)
      #expect(store.parent == Parent.State(child: .init(count: 5), childCountSeenByParent: 5))
      #expect(count.state == 5)
      await child.send(.incrementThrice).finish()
      #expect(store.parent == Parent.State(child: .init(count: 8), childCountSeenByParent: 8))
      #expect(count.state == 8)
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

extension Engine.ChildStoreTests {
  // MARK: - The last state of a removed child (issue 14, item 8)

  @Test func aHeldOptionalStoreShowsTheLastStateEvenIfUnreadSinceItChanged() {
    let store = Store(initialState: List.State()) { List(clock: TestClock()) }
    store.send(.showDetail(3))
    let detail = store.scope(state: \.detail, action: List.Action.detail)
    store.send(.detail(.toggle))  // the held store is not read after this
    store.send(.hideDetail)
    #expect(detail?.value == 1)
  }

  @Test func aHeldOptionalStoreShowsTheStateChangedInTheBatchThatDismissedIt() {
    let store = Store(initialState: List.State()) { List(clock: TestClock()) }
    store.send(.showDetail(3))
    let detail = store.scope(state: \.detail, action: List.Action.detail)
    store.send(.detail(.toggle))
    #expect(detail?.value == 1)
    store.send(.detail(.toggle))
    store.send(.hideDetail)
    #expect(detail?.value == 0)
  }

  @Test func aHeldRowStoreShowsTheRowsLastStateAfterItsRemoval() {
    let store = Store(initialState: List.State()) { List(clock: TestClock()) }
    store.send(.addRow(1))
    store.send(.addRow(2))
    let row = store.scope(state: \.rows, id: 2, action: List.Action.rows)
    store.send(.rows(.element(id: 2, action: .toggle)))  // not read after this
    store.send(.removeRow(2))
    #expect(row?.value == 1)
  }

  @Test func aHeldRowStoreShowsTheLastStateWhenAGrandparentClearsTheRows() {
    var initial = Ancestor.State()
    initial.holder.rows = [Pinger.State(id: 1)]
    let store = Store(initialState: initial) { Ancestor(clock: TestClock()) }
    let holder = store.scope(state: \.holder, action: Ancestor.Action.holder)
    let row = holder.scope(state: \.rows, id: 1, action: Holder.Action.rows)
    store.send(.holder(.rows(.element(id: 1, action: .ping))))
    store.send(.clearRows)
    #expect(row?.pongs == 1)
  }

  @Test func aHeldKeyPathRowStoreShowsTheRowsLastStateAfterItsRemoval() {
    let store = Store(initialState: List.State()) { List(clock: TestClock()) }
    store.send(.addRow(1))
    let row = store.scope(
      state: \.rows[id: 1], action: { List.Action.rows(.element(id: 1, action: $0)) })
    store.send(.rows(.element(id: 1, action: .toggle)))
    store.send(.removeRow(1))
    #expect(row?.value == 1)
  }
}

extension Engine.ChildStoreTests {
  // MARK: - Scopes with an embed function (issue 14, item 14)

  @Test func aScopeWithAnEmbedFunctionAskedFromTwoPlacesIsTheSameStore() {
    let store = Store(initialState: Engine.CompositionTests.Parent.State()) {
      Engine.CompositionTests.Parent()
    }
    let first = store.scope(state: \.child, action: Engine.CompositionTests.Parent.Action.child)
    let second = store.scope(
      state: \.child, action: { Engine.CompositionTests.Parent.Action.child($0) })
    #expect(first === second)
  }

  @Test func optionalAndRowScopesWithAnEmbedFunctionAskedFromTwoPlacesAreTheSameStore() {
    let store = Store(initialState: List.State()) { List(clock: TestClock()) }
    store.send(.showDetail(1))
    store.send(.addRow(2))
    let detail = store.scope(state: \.detail, action: List.Action.detail)
    #expect(detail != nil)
    #expect(detail === store.scope(state: \.detail, action: { List.Action.detail($0) }))
    let row = store.scope(state: \.rows, id: 2, action: List.Action.rows)
    #expect(row != nil)
    #expect(row === store.scope(state: \.rows, id: 2, action: { List.Action.rows($0) }))
    #expect(row !== store.scope(state: \.rows, id: 3, action: List.Action.rows))
  }

  // MARK: - Read-only and computed scopes (issue 14, item 12)

  @Test func aReadOnlyScopeReadsPartOfTheStateAndSendsTheParentsActions() {
    let store = Store(initialState: Engine.CompositionTests.Parent.State()) {
      Engine.CompositionTests.Parent()
    }
    let child = store.scope(state: \.child)
    child.send(.child(.increment))
    #expect(child.count == 1)
    #expect(child === store.scope(state: \.child))
  }

  @Test func aScopeThroughAClosureReadsComputedStateAndObservesIt() {
    let store = Store(initialState: Engine.CompositionTests.Parent.State()) {
      Engine.CompositionTests.Parent()
    }
    let doubled = store.scope(state: { $0.child.count * 2 })
    let counter = store.scope(
      state: { $0.child }, action: { Engine.CompositionTests.Parent.Action.child($0) })
    var changes = 0
    let token = doubled.observe { doubled in
      _ = doubled.state
      changes += 1
    }
    counter.send(.increment)
    #expect(doubled.state == 2)
    #expect(counter.count == 1)
    store.send(.child(.setCount(1)))  // the same computed state: no change
    #expect(changes == 2)
    token.cancel()
  }
}

extension Engine.ChildStoreTests {
  // MARK: - ifLet(then:else:) for UIKit (issue 14, item 12)

  @Test func ifLetCallsThenWhenTheStateAppearsAndElseWhenItGoes() {
    let store = Store(initialState: List.State()) { List(clock: TestClock()) }
    var events: [String] = []
    var shown: StoreOf<Row>?
    let token = store.ifLet(state: \.detail, action: List.Action.detail) { detail in
      shown = detail
      events.append("then \(detail.id)")
    } else: {
      events.append("else")
    }
    #expect(events == ["else"])
    store.send(.showDetail(1))
    #expect(events == ["else", "then 1"])
    shown?.send(.toggle)
    store.send(.showDetail(2))  // still present: `then` is not called again
    #expect(events == ["else", "then 1"])
    store.send(.hideDetail)
    #expect(events == ["else", "then 1", "else"])
    #expect(shown?.id == 2)
    token.cancel()
    store.send(.showDetail(3))
    #expect(events == ["else", "then 1", "else"])
  }

  @Test func ifLetOnAStoreOfOptionalStateUnwrapsIt() {
    let store = Store(initialState: Int?.none) {
      Reduce<Int?, Int?> { state, action in
        state = action
        return .none
      }
    }
    var values: [Int?] = []
    let token = store.ifLet { (child: Store<Int, Int?>) in
      values.append(child.state)
      child.send(nil)  // an action of the parent store, queued behind this batch
    } else: {
      values.append(nil)
    }
    store.send(5)
    #expect(values == [nil, 5, nil])
    _ = token
  }
}
