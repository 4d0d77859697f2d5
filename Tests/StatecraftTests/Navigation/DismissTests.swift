import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// A child ends its own presentation, or pops itself, with `Effect.dismiss` or
  /// `DismissEffect`.
  @MainActor
  @Suite struct DismissTests {
    @Test func aChildDismissesItselfWithAnEffect() async {
      let store = TestStore(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      await store.send(.showSheet) { $0.sheet = Ticker.State() }
      await store.send(.sheet(.presented(.closeTapped)))
      await store.receive(\.sheet.dismiss) { $0.sheet = nil }
    }

    @Test func aChildDismissesItselfFromARunWithADismissValue() async {
      let store = TestStore(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      await store.send(.showSheet) { $0.sheet = Ticker.State() }
      await store.send(.sheet(.presented(.saveTapped)))
      await store.receive(\.sheet.dismiss) { $0.sheet = nil }
    }

    @Test func anElementPopsItselfWithADismissValue() async {
      let store = TestStore(initialState: Drill.State()) { Drill(clock: TestClock()) }
      await store.send(.push) { $0.path.append(Ticker.State()) }
      await store.send(.push) { $0.path.append(Ticker.State()) }
      let top = store.state.path.ids.last!
      await store.send(.path(.element(id: top, action: .saveTapped)))
      await store.receive(\.path.popFrom, top) { $0.path.removeLast() }
    }

    @Test func aDismissalByAFeatureThatIsNotPresentedIsReported() async {
      let store = Store(initialState: Ticker.State()) { Ticker(clock: TestClock()) }
      await expectOneFailure(containing: ["was called by a feature that is not presented"]) {
        await store.send(.closeTapped).finish()
      }
    }

    @Test func aDismissalAskedForByAReplacedChildLeavesTheNewChildPresented() async {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      let gate = Gate()
      store.send(.showSheet)
      let task = store.send(.sheet(.presented(.saveAfter(gate))))
      store.send(.showSheet)
      gate.open()
      await task.finish()
      #expect(store.sheet == Ticker.State())
    }
  }
}
