import CasePathsCore
import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// Alerts and confirmation dialogs as values, presented through a `PresentationState`.
  @MainActor
  @Suite struct AlertTests {
    @Test func aButtonSendsItsActionAndDismisses() async {
      let store = TestStore(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      await store.send(.showAlert) {
        $0.alert = AlertState(
          title: "Delete?", message: "This cannot be undone.",
          buttons: [
            ButtonState(role: .destructive, action: .confirmDelete, label: "Delete"),
            ButtonState(role: .cancel, label: "Cancel"),
          ])
      }
      await store.send(.alert(.press(store.state.alert!.buttons[0]))) {
        $0.alert = nil
        $0.deleted = 1
      }
    }

    @Test func aButtonWithoutAnActionOnlyDismisses() async {
      let store = TestStore(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      await store.send(.showAlert) { $0.alert = Presenter.deleteAlert }
      let cancel = store.state.alert!.buttons[1]
      #expect(PresentationAction.press(cancel) == .dismiss)
      await store.send(.alert(.press(cancel))) { $0.alert = nil }
    }

    @Test func anAlertPresentedByTheButtonsOwnActionStays() async {
      let store = TestStore(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      await store.send(.showAlert) { $0.alert = Presenter.deleteAlert }
      await store.send(\.alert.presented, .deleteAndAskAgain) { $0.deleted = 1 }
      #expect(store.state.alert != nil)
    }

    @Test func alertsAndDialogsCompareByTheirContents() {
      let dialog = ConfirmationDialogState<Int>(
        title: "Delete?", titleVisibility: .visible,
        buttons: [ButtonState(role: .destructive, action: 1, label: "Delete")])
      #expect(
        dialog
          == ConfirmationDialogState(
            title: "Delete?", titleVisibility: .visible,
            buttons: [ButtonState(role: .destructive, action: 1, label: "Delete")]))
      #expect(
        dialog
          != ConfirmationDialogState(
            title: "Delete?", buttons: [ButtonState(role: .destructive, action: 2, label: "Delete")]
          ))
      #expect(AlertState<Int>(title: "A") != AlertState<Int>(title: "A", message: "m"))
    }

    @Test func aDialogIsDismissedByItsButton() async {
      struct Feature: Reducer {
        struct State: Equatable { @Presents var dialog: ConfirmationDialogState<Int>? }
        enum Action: Equatable { case dialog(PresentationAction<Int>), ask }
        var body: some Reducer<State, Action> {
          Reduce { state, action in
            if case .ask = action {
              state.dialog = ConfirmationDialogState(
                title: "Pick", buttons: [ButtonState(action: 7, label: "Seven")])
            }
            return .none
          }
          .ifLet(
            \.$dialog,
            action: AnyCasePath(embed: Action.dialog) {
              if case .dialog(let a) = $0 { a } else { nil }
            })
        }
      }
      let store = Store(initialState: Feature.State()) { Feature() }
      store.send(.ask)
      #expect(store.dialog?.buttons.count == 1)
      store.send(.dialog(.press(store.dialog!.buttons[0])))
      #expect(store.dialog == nil)
    }
  }
}
