// A reading list written as a TCA team writes a feature: `@Reducer` on each feature and on the
// destination and path enums, `@ObservableState`, `@Presents`, and `ifLet`/`forEach` with no
// child closure. It imports StatecraftMacros and nothing else; its tests are in
// Tests/StatecraftTests/ReadingList/.
import Foundation
import StatecraftMacros

/// A book on the list.
public struct Book: Equatable, Identifiable, Sendable {
  public let id: UUID
  public var title: String
  public var author: String
  public var isRead: Bool

  public init(id: UUID, title: String, author: String, isRead: Bool = false) {
    self.id = id
    self.title = title
    self.author = author
    self.isRead = isRead
  }
}

/// The list: add a book in a sheet, delete one after an alert, open one in a stack.
@Reducer
public struct ReadingList {
  @ObservableState
  public struct State: Equatable {
    public var books: IdentifiedArrayOf<Book>
    @Presents public var destination: Destination.State?
    public var path = StackState<Path.State>()

    public init(books: IdentifiedArrayOf<Book> = []) {
      self.books = books
    }

    /// How many books are read.
    public var readCount: Int { books.filter(\.isRead).count }
  }

  public enum Action: Equatable {
    case addButtonTapped
    case bookTapped(id: Book.ID)
    case deleteButtonTapped(id: Book.ID)
    case destination(PresentationAction<Destination.Action>)
    case path(StackAction<Path.State, Path.Action>)

    public enum Alert: Equatable, Sendable {
      case confirmDeletion(id: Book.ID)
    }
  }

  /// What the list presents: a sheet to add a book, or the alert before a delete.
  @Reducer
  public enum Destination {
    case addBook(AddBook)
    case alert(AlertState<ReadingList.Action.Alert>)
  }

  /// The screens pushed on the list: a book's detail, or a note about the list.
  @Reducer
  public enum Path {
    case detail(BookDetail)
    @ReducerCaseIgnored
    case about(String)
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .addBook(
          AddBook.State(book: Book(id: uuid(), title: "", author: "")))
        return .none

      case .bookTapped(let id):
        guard let book = state.books[id: id] else { return .none }
        state.path.append(.detail(BookDetail.State(book: book)))
        return .none

      case .deleteButtonTapped(let id):
        guard let book = state.books[id: id] else { return .none }
        state.destination = .alert(
          AlertState {
            TextState("Delete “\(book.title)”?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmDeletion(id: id)) {
              TextState("Delete")
            }
            ButtonState(role: .cancel) {
              TextState("Keep it")
            }
          })
        return .none

      case .destination(.presented(.addBook(.delegate(.save(let book))))):
        state.books.append(book)
        return .none

      case .destination(.presented(.alert(.confirmDeletion(let id)))):
        state.books.remove(id: id)
        return .none

      case .destination:
        return .none

      case .path(.element(_, action: .detail(.delegate(.changed(let book))))):
        state.books[id: book.id] = book
        return .none

      case .path:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path)
  }
}

extension ReadingList.Destination.State: Equatable {}
extension ReadingList.Destination.Action: Equatable {}
extension ReadingList.Path.State: Equatable {}
extension ReadingList.Path.Action: Equatable {}

/// The sheet that adds a book: a title and an author; saving hands the book to the list and
/// dismisses the sheet.
@Reducer
public struct AddBook {
  @ObservableState
  public struct State: Equatable {
    public var book: Book

    public init(book: Book) {
      self.book = book
    }
  }

  public enum Action: Equatable {
    case setTitle(String)
    case setAuthor(String)
    case saveButtonTapped
    case cancelButtonTapped
    case delegate(Delegate)

    public enum Delegate: Equatable {
      case save(Book)
    }
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .setTitle(let title):
        state.book.title = title
        return .none
      case .setAuthor(let author):
        state.book.author = author
        return .none
      case .saveButtonTapped:
        let book = state.book
        guard !book.title.trimmingCharacters(in: .whitespaces).isEmpty else { return .none }
        return .run { [dismiss] send in
          await send(.delegate(.save(book)))
          await dismiss()
        }
      case .cancelButtonTapped:
        return .run { [dismiss] _ in await dismiss() }
      case .delegate:
        return .none
      }
    }
  }
}

/// A book's screen: marking it read tells the list.
@Reducer
public struct BookDetail {
  @ObservableState
  public struct State: Equatable {
    public var book: Book

    public init(book: Book) {
      self.book = book
    }
  }

  public enum Action: Equatable {
    case toggleReadTapped
    case delegate(Delegate)

    public enum Delegate: Equatable {
      case changed(Book)
    }
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .toggleReadTapped:
        state.book.isRead.toggle()
        return .send(.delegate(.changed(state.book)))
      case .delegate:
        return .none
      }
    }
  }
}
