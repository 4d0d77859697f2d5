import Clocks
import Testing

@testable import Statecraft

extension Engine {
  /// What debugging tools (the Inspector, time travel, the recorder) reach through a store of
  /// any kind: the state of its tree's root, never a child's taken for it.
  @MainActor
  @Suite struct DebuggingRootTests {
    @Test func aPresentedChildsStoreGivesTheInspectorTheRootsState() {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      store.send(.showSheet)
      let sheet = store.scope(state: \.$sheet, action: \.sheet)!
      sheet.send(.edit("draft"))
      let draft = sheet.scope(state: \.draft, action: { (text: String) in .edit(text) })

      for child in [sheet.inspectedRootState, draft.inspectedRootState] {
        #expect(child as? Presenter.State == store.state)
      }
      // Time travel through the child's store moves the root.
      #expect(sheet.replaceInspectedRootState(Presenter.State()))
      #expect(store.state == Presenter.State())
      // A past step is recomputed with the root's reducer.
      var presented = Presenter.State()
      presented.sheet = Ticker.State()
      let reduced = draft.reduceInspectedRootState(presented, action: Presenter.Action.showSheet)
      #expect((reduced as? Presenter.State)?.sheet != nil)
    }

    @Test func aStackElementsStoreGivesTheInspectorTheRootsState() {
      let store = Store(initialState: Drill.State()) { Drill(clock: TestClock()) }
      store.send(.push)
      let element = store.scope(state: \.path, id: store.path.ids[0], action: \.path)!
      element.send(.edit("a"))
      #expect(element.inspectedRootState as? Drill.State == store.state)
      #expect(element.replaceInspectedRootState(Drill.State()))
      #expect(store.path.isEmpty)
    }

    @Test func aPresentedChildsStoreNeitherJumpsNorRecords() async {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      store.send(.showSheet)
      let sheet = store.scope(state: \.$sheet, action: \.sheet)!
      let recorder = Recorder<Ticker.State, Ticker.Action>(initialState: sheet.state)
      await expectOneFailure(containing: ["made by 'scope'"]) {
        #expect(!sheet.jump(toStep: 0, in: recorder.recording, reducer: Ticker(clock: TestClock())))
      }
      await expectOneFailure(containing: ["made by 'scope'"]) {
        #expect(!sheet.record(into: recorder))
      }
    }
  }
}
