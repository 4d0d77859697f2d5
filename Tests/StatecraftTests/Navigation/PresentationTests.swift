import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// `ifLet` over a `PresentationState`: identity, cancellation, late actions, misuse.
  @MainActor
  @Suite struct PresentationTests {
    @Test func aFreshPresentationIsANewIdentityAndAnEditInPlaceIsNot() {
      var state = Presenter.State()
      #expect(state.$sheet.id == nil)
      state.sheet = Ticker.State()
      let first = state.$sheet.id
      state.sheet?.ticks += 1
      #expect(state.$sheet.id == first)
      state.sheet = Ticker.State(ticks: 1)
      let second = state.$sheet.id
      #expect(first != nil && second != nil && first != second)
      #expect(second! > first!)
      state.sheet = nil
      #expect(state.$sheet.id == nil)
      state.sheet = Ticker.State(ticks: 1)
      #expect(state.$sheet.id! > second!)
    }

    @Test func dismissingCancelsEveryEffectOfTheChild() async {
      let clock = TestClock()
      let store = Store(initialState: Presenter.State()) { Presenter(clock: clock) }
      store.send(.showSheet)
      let later = store.send(.sheet(.presented(.tickLater)))
      let sooner = store.send(.sheet(.presented(.tickLater)))
      await clock.advance(by: .milliseconds(500))
      store.send(.sheet(.dismiss))
      #expect(store.sheet == nil)
      // Late ticks would be reported as actions while nothing is presented.
      await clock.run()
      await later.finish()
      await sooner.finish()
      #expect(store.runningEffectCount == 0)
    }

    @Test func replacingCancelsEveryEffectOfTheOldChildAndNoneReachesTheNewOne() async {
      let clock = TestClock()
      let store = Store(initialState: Presenter.State()) { Presenter(clock: clock) }
      store.send(.showSheet)
      let later = store.send(.sheet(.presented(.tickLater)))
      await clock.advance(by: .milliseconds(500))
      store.send(.showSheet)
      await clock.run()
      await later.finish()
      #expect(store.sheet == Ticker.State())
      #expect(store.runningEffectCount == 0)
    }

    @Test func aLateActionOfAReplacedChildIsDroppedNotDeliveredToTheNewOne() {
      // The child queues `.tick` with `.send`; in the same batch, before it is reduced, the
      // parent presents a new child at the same place.
      let store = Store(initialState: Presenter.State()) {
        Presenter(clock: TestClock())
        Reduce<Presenter.State, Presenter.Action> { state, action in
          if case .sheet(.presented(.tickSoon)) = action { state.sheet = Ticker.State() }
          return .none
        }
      }
      store.send(.showSheet)
      store.send(.sheet(.presented(.tickSoon)))
      #expect(store.sheet?.ticks == 0)
    }

    @Test func aChildActionWhileNothingIsPresentedIsReported() async {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      await expectOneFailure(
        containing: ["received an action for a presented child while nothing was presented"]
      ) {
        store.send(.sheet(.presented(.tick)))
      }
    }

    @Test func aDestinationThatChangesCaseCancelsTheOldCasesEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Presenter.State()) { Presenter(clock: clock) }
      store.send(.showDestination(.first(Ticker.State())))
      let later = store.send(.destination(.presented(.first(.tickLater))))
      store.send(.showDestination(.second(Ticker.State())))
      await clock.run()
      await later.finish()
      #expect(store.destination == .second(Ticker.State()))
      #expect(store.runningEffectCount == 0)
    }

    @Test func aDestinationWithHandWrittenCasePathsRunsAndEndsItsChildren() async {
      let clock = TestClock()
      let store = Store(initialState: PlainPresenter.State()) { PlainPresenter(clock: clock) }
      store.send(.show(.first(Ticker.State())))
      let first = store.send(.destination(.presented(.first(.tickLater))))
      await clock.advance(by: .seconds(1))
      await first.finish()
      #expect(store.destination == .first(Ticker.State(ticks: 1)))
      store.send(.show(.first(Ticker.State())))
      let later = store.send(.destination(.presented(.first(.tickLater))))
      store.send(.show(.first(Ticker.State())))
      await clock.run()
      await later.finish()
      #expect(store.destination == .first(Ticker.State()))
      let last = store.send(.destination(.presented(.first(.tickLater))))
      store.send(.destination(.dismiss))
      await clock.run()
      await last.finish()
      #expect(store.destination == nil)
      #expect(store.runningEffectCount == 0)
    }
  }
}
