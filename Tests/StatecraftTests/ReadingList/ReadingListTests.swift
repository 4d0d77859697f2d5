import ConcurrencyExtras
import Foundation
import Observation
import ReadingListFeature
import StatecraftMacros
import StatecraftTesting
import Testing

extension Engine {
  /// The reading list, a feature written with TCA's macros, tested as a TCA team tests one.
  @MainActor
  @Suite struct ReadingListTests {
    let dune = Book(id: UUID(0), title: "Dune", author: "Frank Herbert")

    @Test func aBookIsAddedInASheetThatDismissesItself() async {
      let store = TestStore(initialState: ReadingList.State()) {
        ReadingList()
      } withDependencies: {
        $0.uuid = .incrementing
      }
      await store.send(.addButtonTapped) {
        $0.destination = .addBook(
          AddBook.State(book: Book(id: UUID(0), title: "", author: "")))
      }
      await store.send(.destination(.presented(.addBook(.setTitle("Dune"))))) {
        $0.destination = .addBook(
          AddBook.State(book: Book(id: UUID(0), title: "Dune", author: "")))
      }
      await store.send(.destination(.presented(.addBook(.setAuthor("Frank Herbert"))))) {
        $0.destination = .addBook(AddBook.State(book: self.dune))
      }
      await store.send(.destination(.presented(.addBook(.saveButtonTapped))))
      await store.receive(.destination(.presented(.addBook(.delegate(.save(self.dune)))))) {
        $0.books = [self.dune]
      }
      await store.receive(.destination(.dismiss)) {
        $0.destination = nil
      }
    }

    @Test func aBookIsDeletedOnlyOnceTheAlertIsConfirmed() async {
      let store = TestStore(initialState: ReadingList.State(books: [dune])) {
        ReadingList()
      }
      await store.send(.deleteButtonTapped(id: dune.id)) {
        $0.destination = .alert(
          AlertState {
            TextState("Delete “Dune”?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmDeletion(id: self.dune.id)) {
              TextState("Delete")
            }
            ButtonState(role: .cancel) {
              TextState("Keep it")
            }
          })
      }
      await store.send(.destination(.presented(.alert(.confirmDeletion(id: dune.id))))) {
        $0.destination = nil
        $0.books = []
      }
    }

    @Test func aBookReadInItsDetailIsReadInTheList() async {
      let store = TestStore(initialState: ReadingList.State(books: [dune])) {
        ReadingList()
      }
      await store.send(.bookTapped(id: dune.id)) {
        $0.path[id: 0] = .detail(BookDetail.State(book: self.dune))
      }
      var read = dune
      read.isRead = true
      await store.send(.path(.element(id: 0, action: .detail(.toggleReadTapped)))) {
        $0.path[id: 0] = .detail(BookDetail.State(book: read))
      }
      await store.receive(.path(.element(id: 0, action: .detail(.delegate(.changed(read)))))) {
        $0.books[id: self.dune.id]?.isRead = true
      }
      #expect(store.state.readCount == 1)
    }

    @Test func aStateOnlyCaseKeepsItsValueAndHasNoAction() {
      var state = ReadingList.State()
      state.path.append(.about("Books to read this year"))
      #expect(state.path.first?.about == "Books to read this year")
      #expect(state.path.first?.detail == nil)
      // NB: `@ReducerCaseIgnored`: the action's case holds `Never`, so none can be sent.
      let about: CaseKeyPath<ReadingList.Path.Action, Never> = \.about
      _ = about
    }

    // MARK: - switch store.case

    @Test func aViewSwitchesOnAPathElementsStoreAndDrivesTheChildThroughIt() {
      let store = Store(initialState: ReadingList.Path.State.detail(BookDetail.State(book: dune))) {
        ReadingList.Path.body
      }
      guard case .detail(let detail) = store.case else {
        Issue.record("expected the detail case, got \(store.case)")
        return
      }
      #expect(detail.book == dune)
      detail.send(.toggleReadTapped)
      #expect(store.state.detail?.book.isRead == true)
      // NB: the same child store each time the view is drawn, not a new one.
      guard case .detail(let again) = store.case else {
        Issue.record("expected the detail case, got \(store.case)")
        return
      }
      #expect(again === detail)
    }

    @Test func switchingOnTheCaseObservesWhichCaseIsPresentNotWhatChangesInside() {
      let store = Store(initialState: ReadingList.Path.State.detail(BookDetail.State(book: dune))) {
        ReadingList.Path.body
      }
      let notified = track { _ = store.case }
      guard case .detail(let detail) = store.case else {
        Issue.record("expected the detail case, got \(store.case)")
        return
      }
      detail.send(.toggleReadTapped)
      detail.send(.toggleReadTapped)
      #expect(store.state.detail?.book.isRead == false)
      #expect(notified.value == 0)
    }

    @Test func aCaseThatHoldsAValueGivesTheValue() {
      let store = Store(initialState: ReadingList.Path.State.about("Books to read this year")) {
        ReadingList.Path.body
      }
      guard case .about(let text) = store.case else {
        Issue.record("expected the about case, got \(store.case)")
        return
      }
      #expect(text == "Books to read this year")
    }

    @Test func aPresentedDestinationSwitchesFromASheetToAnAlert() {
      let store = Store(initialState: ReadingList.State(books: [dune])) {
        ReadingList()
      } withDependencies: {
        $0.uuid = .incrementing
      }
      store.send(.addButtonTapped)
      guard let sheet = store.scope(state: \.$destination, action: \.destination),
        case .addBook(let addBook) = sheet.case
      else {
        Issue.record("expected the add-book sheet, got \(String(describing: store.destination))")
        return
      }
      addBook.send(.setTitle("Dune Messiah"))
      #expect(store.destination?.addBook?.book.title == "Dune Messiah")

      store.send(.destination(.dismiss))
      store.send(.deleteButtonTapped(id: dune.id))
      guard let alertStore = store.scope(state: \.$destination, action: \.destination),
        case .alert(let alert) = alertStore.case
      else {
        Issue.record("expected the alert, got \(String(describing: store.destination))")
        return
      }
      #expect(alert == store.destination?.alert)
    }
  }
}
