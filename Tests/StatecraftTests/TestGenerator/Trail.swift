import CasePaths
import Statecraft

/// A feature with navigation, for the test generator: pages on a stack that tell the parent of
/// their edits and dismiss themselves, a sheet changed while it is presented, an alert, and a
/// shared count beside them.
struct Trail: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Page.State>()
    @Presents var sheet: Sheet.State? = nil
    @Presents var alert: AlertState<Action.Alert>? = nil
    var visits: Shared<Int>
    var titles: [String] = []
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Page>)
    case sheet(PresentationAction<Sheet.Action>)
    case alert(PresentationAction<Alert>)
    case open(String)
    case showSheet
    case askToClear

    enum Alert: Equatable, Sendable {
      case clear
    }
  }

  struct Page: Reducer {
    struct State: Equatable, Sendable {
      var title: String
      var edits = 0
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case rename(String)
      case close
      case delegate(Delegate)

      enum Delegate: Equatable, Sendable {
        case renamed(String)
      }
    }

    let dismiss = DismissEffect()

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .rename(let title):
        state.title = title
        state.edits += 1
        return .send(.delegate(.renamed(title)))
      case .close:
        return .run { [dismiss] _ in await dismiss() }
      case .delegate:
        return .none
      }
    }
  }

  struct Sheet: Reducer {
    struct State: Equatable, Sendable {
      var text = ""
      var words = 0
    }

    enum Action: Equatable, Sendable {
      case type(String)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .type(let text):
        state.text = text
        state.words = text.split(separator: " ").count
        return .none
      }
    }
  }

  static let clearAlert = AlertState<Action.Alert>(
    title: "Clear?",
    buttons: [
      ButtonState(role: .destructive, action: .clear, label: "Clear"),
      ButtonState(role: .cancel, label: "Keep"),
    ])

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .open(let title):
        state.path.append(Page.State(title: title))
        state.visits.wrappedValue += 1
        return .none
      case .path(.element(_, .delegate(.renamed(let title)))):
        state.titles.append(title)
        return .none
      case .showSheet:
        state.sheet = Sheet.State()
        return .none
      case .askToClear:
        state.alert = Self.clearAlert
        return .none
      case .alert(.presented(.clear)):
        state.titles = []
        state.path.removeAll()
        return .none
      case .path, .sheet, .alert:
        return .none
      }
    }
    .forEach(\.path, action: \.path) { Page() }
    .ifLet(\.$sheet, action: \.sheet) { Sheet() }
    .ifLet(\.$alert, action: \.alert)
  }
}
