import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// Stores of presented children and stack elements, the bindings the Apple glue passes on, and
  /// the presentation observation a UIKit controller uses.
  @MainActor
  @Suite struct NavigationStoreTests {
    @Test func eachPresentationHasItsOwnStoreAndAStaleOneReachesNoNewChild() async {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      #expect(store.scope(state: \.$sheet, action: \.sheet) == nil)
      store.send(.showSheet)
      let first = store.scope(state: \.$sheet, action: \.sheet)!
      #expect(store.scope(state: \.$sheet, action: \.sheet) === first)
      first.send(.edit("first"))
      #expect(store.sheet?.draft == "first")
      store.send(.showSheet)
      let second = store.scope(state: \.$sheet, action: \.sheet)!
      #expect(second !== first)
      await expectOneFailure(containing: ["sent an action after its presentation ended"]) {
        first.send(.edit("late"))
      }
      #expect(store.sheet?.draft == "")
      #expect(first.draft == "first")
    }

    @Test func aScopeOfAStalePresentedStoreReachesNoNewChild() async {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      store.send(.showSheet)
      let sheet = store.scope(state: \.$sheet, action: \.sheet)!
      let draft = sheet.scope(state: \.draft, action: Ticker.Action.edit)
      draft.send("first")
      #expect(store.sheet?.draft == "first")
      store.send(.showSheet)
      await expectOneFailure(containing: ["sent an action after its presentation ended"]) {
        draft.send("late")
      }
      #expect(store.sheet?.draft == "")
    }

    @Test func anElementStoreOfAPoppedElementReachesNoNewerOne() async {
      let store = Store(initialState: Drill.State()) { Drill(clock: TestClock()) }
      store.send(.push)
      let id = store.path.ids[0]
      let element = store.scope(state: \.path, id: id, action: \.path)!
      element.send(.edit("a"))
      #expect(store.path[0].draft == "a")
      store.send(.popAll)
      store.send(.push)
      #expect(store.scope(state: \.path, id: id, action: \.path) == nil)
      await expectOneFailure(containing: ["not on the stack"]) {
        element.send(.edit("late"))
      }
      #expect(store.path[0].draft == "")
    }

    @Test func aPresentationBindingDismissesOnlyThePresentationItWasReadFor() {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      store.send(.showSheet)
      let binding = store.binding(presenting: \.$sheet, action: \.sheet)
      #expect(binding.wrappedValue?.id == store.state.$sheet.id)
      let isPresented = store.binding(isPresented: \.$sheet, action: \.sheet)
      #expect(isPresented.wrappedValue)
      store.send(.showSheet)
      binding.wrappedValue = nil
      isPresented.wrappedValue = false
      #expect(store.sheet != nil)
      store.binding(presenting: \.$sheet, action: \.sheet).wrappedValue = nil
      #expect(store.sheet == nil)
    }

    @Test func anAlertBindingWrittenFalseAfterItsButtonLeavesANewAlert() {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      store.send(.showAlert)
      let isPresented = store.binding(isPresented: \.$alert, action: \.alert)
      // A button whose action presents the alert again, then the view writes false.
      store.send(.alert(.presented(.deleteAndAskAgain)))
      isPresented.wrappedValue = false
      #expect(store.alert == Presenter.deleteAlert)
      store.binding(isPresented: \.$alert, action: \.alert).wrappedValue = false
      #expect(store.alert == nil)
    }

    @Test func observingAPresentationPresentsAndDismissesAsItComesAndGoes() {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      var log: [String] = []
      let token = store.observePresentation(\.$sheet, action: \.sheet) { child in
        log.append("present \(child.ticks)")
      } dismiss: {
        log.append("dismiss")
      }
      #expect(log.isEmpty)
      store.send(.showSheet)
      store.send(.sheet(.presented(.tick)))
      store.send(.showSheet)
      store.send(.sheet(.dismiss))
      #expect(log == ["present 0", "dismiss", "present 0", "dismiss"])
      token.cancel()
    }
  }
}
