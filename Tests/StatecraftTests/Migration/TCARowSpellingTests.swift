import CasePaths
import IdentifiedCollections
import StatecraftTesting
import Testing

@testable import Statecraft

/// A list of rows scoped with TCA's unlabeled `Scope` and reached by `\.rows[id:]`.
private struct RowShelf: Reducer {
  struct State: Equatable {
    var list = RowBookList.State()
  }
  @CasePathable
  enum Action: Equatable {
    case list(RowBookList.Action)
  }
  var body: some Reducer<State, Action> {
    Scope(\.list, action: \.list) { RowBookList() }
  }
}

private struct RowBookList: Reducer {
  struct State: Equatable {
    var books: IdentifiedArrayOf<RowBook.State> = [RowBook.State(id: 1), RowBook.State(id: 2)]
  }
  @CasePathable
  enum Action: Equatable {
    case books(IdentifiedActionOf<RowBook>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .forEach(\.books, action: \.books) { RowBook() }
  }
}

private struct RowBook: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var isRead = false
    var title = ""
  }
  @CasePathable
  enum Action: Equatable {
    case toggle
    case rename(String)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggle: state.isRead.toggle()
    case .rename(let title): state.title = title
    }
    return .none
  }
}

extension Engine {
  /// TCA's spellings for a list of rows: `Scope(\.x, action: \.x)` and `\.rows[id:]` case paths.
  @MainActor
  @Suite struct TCARowSpellingTests {
    @Test func aRowIsReachedByItsIdThroughAnUnlabeledScope() async {
      let store = TestStore(initialState: RowShelf.State()) { RowShelf() }
      await store.send(\.list.books[id: 2].toggle) {
        $0.list.books[id: 2]?.isRead = true
      }
      await store.send(\.list.books[id: 1].rename, "Dune") {
        $0.list.books[id: 1]?.title = "Dune"
      }
      let action = RowShelf.Action.list(.books(.element(id: 2, action: .toggle)))
      #expect(action[case: \.list.books[id: 2].toggle] != nil)
      #expect(action[case: \.list.books[id: 1].toggle] == nil)
      #expect(action[case: \.list.books.element]?.id == 2)
    }
  }
}
