import CasePaths
import Foundation
import IdentifiedCollections
import Statecraft
import StatecraftTesting
import Testing

/// The TCA migration guide's "TCA's spellings" section: a feature written the way TCA writes it
/// (alert builders with `TextState`, `BindingReducer()`, `case .binding(\.field)`, a
/// closure-less `ifLet` over an enum destination, case key paths through `PresentationAction`
/// and `BindingAction`, `Shared($items[id: id])`, `Key.Default`), converted and run.
extension Engine {
  @MainActor
  @Suite struct TCAMigrationSpellingTests {
    // docs:begin MigratingFromTCA
    struct Notes: Reducer {
      struct State: Equatable { var text = "" }
      @CasePathable
      enum Action: Equatable, BindableAction {
        case binding(BindingAction<State>)
        case clearButtonTapped
      }

      var body: some Reducer<State, Action> {
        BindingReducer()
        Reduce { state, action in
          switch action {
          case .binding:
            return .none
          case .clearButtonTapped:
            return .send(.binding(.set(\.text, "")))
          }
        }
      }
    }

    struct Recipe: Reducer {
      struct State: Equatable {
        @Presents var destination: Destination.State?
        var servings = 1
        var title = "Soup"
        var grams = 250
      }

      @CasePathable
      enum Action: Equatable, BindableAction {
        case binding(BindingAction<State>)
        case delegate(Delegate)
        case deleteButtonTapped
        case destination(PresentationAction<Destination.Action>)
        case notesButtonTapped
        @CasePathable
        enum Alert: Equatable { case confirmDeletion }
        @CasePathable
        enum Delegate: Equatable { case deleted }
      }

      /// TCA's `@Reducer enum Destination { case alert(AlertState<…>); case notes(Notes) }`.
      enum Destination: CaseReducer {
        @CasePathable
        enum State: Equatable, CaseReducerState {
          typealias StateReducer = Destination
          case alert(AlertState<Recipe.Action.Alert>)
          case notes(Notes.State)
        }
        @CasePathable
        enum Action: Equatable {
          case alert(Recipe.Action.Alert)
          case notes(Notes.Action)
        }
        static var body: some Reducer<State, Action> {
          Scope(state: \.notes, action: \.notes) { Notes() }
        }
      }

      var body: some Reducer<State, Action> {
        BindingReducer()
        Reduce { state, action in
          switch action {
          case .binding(\.servings):
            state.grams = 250 * state.servings
            return .none
          case .binding:
            return .none
          case .deleteButtonTapped:
            state.destination = .alert(
              AlertState {
                TextState("Delete “\(state.title)”?")
              } actions: {
                ButtonState(role: .destructive, action: .confirmDeletion) {
                  TextState("Delete")
                }
                ButtonState(role: .cancel) { TextState("Cancel") }
              } message: {
                TextState("It serves \(state.servings).")
              })
            return .none
          case .destination(.presented(.alert(.confirmDeletion))):
            return .send(.delegate(.deleted))
          case .delegate, .destination:
            return .none
          case .notesButtonTapped:
            state.destination = .notes(Notes.State(text: "Salt"))
            return .none
          }
        }
        .ifLet(\.$destination, action: \.destination)
      }
    }
    // docs:end

    @Test func tcaSpellingsDriveTheFeature() async {
      // docs:begin MigratingFromTCA
      let store = TestStore(initialState: Recipe.State()) { Recipe() }
      await store.send(\.binding.servings, 2) {
        $0.servings = 2
        $0.grams = 500
      }
      await store.send(\.binding.title, "Stew") { $0.title = "Stew" }
      await store.send(.notesButtonTapped) { $0.destination = .notes(Notes.State(text: "Salt")) }
      await store.send(\.destination.notes.binding.text, "Pepper") {
        $0.destination = .notes(Notes.State(text: "Pepper"))
      }
      await store.send(\.destination.notes.clearButtonTapped)
      await store.receive(\.destination.notes.binding.text, "") {
        $0.destination = .notes(Notes.State(text: ""))
      }
      await store.send(.deleteButtonTapped) {
        $0.destination = .alert(
          AlertState {
            TextState("Delete “Stew”?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
            ButtonState(role: .cancel) { TextState("Cancel") }
          } message: {
            TextState("It serves 2.")
          })
      }
      await store.send(\.destination.alert.confirmDeletion) { $0.destination = nil }
      await store.receive(\.delegate.deleted)
      // docs:end
    }

    @Test func todaysSpellingsDriveTheSameFeature() async {
      let store = TestStore(initialState: Recipe.State()) { Recipe() }
      await store.send(.binding(.set(\.servings, 3))) {
        $0.servings = 3
        $0.grams = 750
      }
      await store.send(.notesButtonTapped) { $0.destination = .notes(Notes.State(text: "Salt")) }
      await store.send(\.destination.presented.notes, .binding(.set(\.text, "Dill"))) {
        $0.destination = .notes(Notes.State(text: "Dill"))
      }
      await store.send(.deleteButtonTapped) {
        $0.destination = .alert(
          AlertState(
            title: "Delete “Soup”?", message: "It serves 3.",
            buttons: [
              ButtonState(role: .destructive, action: .confirmDeletion, label: "Delete"),
              ButtonState(role: .cancel, label: "Cancel"),
            ]))
      }
      await store.send(\.destination.presented.alert.confirmDeletion) { $0.destination = nil }
      await store.receive(.delegate(.deleted))
    }

    @Test func aCaseKeyPathThroughAPresentationMatchesTheCaseNotADismissal() {
      let confirm: CaseKeyPath<Recipe.Action, Void> = \.destination.alert.confirmDeletion
      #expect(
        Recipe.Action.destination(.presented(.alert(.confirmDeletion)))[case: confirm] != nil)
      #expect(Recipe.Action.destination(.dismiss)[case: confirm] == nil)
      #expect(AnyCasePath(confirm).embed(()) == .destination(.presented(.alert(.confirmDeletion))))
      let servings: CaseKeyPath<Recipe.Action, Int> = \.binding.servings
      #expect(Recipe.Action.binding(.set(\.servings, 4))[case: servings] == 4)
      #expect(Recipe.Action.binding(.set(\.grams, 4))[case: servings] == nil)
    }

    @Test func aBindingPatternMatchesOnlyItsField() {
      let action = BindingAction<Recipe.State>.set(\.servings, 2)
      var matched: [String] = []
      switch action {
      case \.title: matched.append("title")
      case \.servings: matched.append("servings")
      default: matched.append("other")
      }
      #expect(matched == ["servings"])
      #expect(Recipe.Action.binding(action).binding == action)
      #expect(Recipe.Action.notesButtonTapped.binding == nil)
    }
  }
}

// MARK: - Alert text

extension Engine.TCAMigrationSpellingTests {
  @Test func textStateConcatenatesFormatsAndRendersPlainText() {
    let name = "100% Soup"
    #expect(String(state: TextState("Delete “\(name)”?")) == "Delete “100% Soup”?")
    #expect(String(state: TextState("\(3) of \(4) done")) == "3 of 4 done")
    #expect(
      String(state: TextState("Save ") + TextState(verbatim: name) + TextState("."))
        == "Save 100% Soup.")
    #expect(String(state: TextState(verbatim: "%@ 100%")) == "%@ 100%")
    #expect(String(state: TextState("50% off")) == "50% off")
    #expect(String(state: TextState("\(1.5, format: .number) kg")) == "1.5 kg")
    #expect(TextState("Yes") == TextState(verbatim: "Yes"))
    #expect(TextState("Yes") != TextState("No"))
    #expect("\(TextState("Total: \(2)"))" == "Total: 2")
  }

  @Test func aLiteralIsAKeyAndAStringIsVerbatim() {
    let key: TextState.LocalizedKey = "Delete \("Soup") (\(2) servings, 100%)"
    #expect(key.key == "Delete %@ (%lld servings, 100%%)")
    #expect(String(state: TextState(key)) == "Delete Soup (2 servings, 100%)")
    let title = "Delete %@"
    #expect(String(state: TextState(title)) == "Delete %@")
  }

  @Test func aDialogAndItsButtonsAreBuiltAsTCAs() async {
    enum Choice: Equatable, Sendable { case share, delete, retry }
    let dialog = ConfirmationDialogState<Choice>(titleVisibility: .visible) {
      TextState("Share or delete?")
    } actions: {
      ButtonState(action: .send(.share)) { TextState("Share") }
      ButtonState(role: .destructive, action: .delete) { TextState("Delete") }
      ButtonState(action: .animatedSend(.retry, animation: .easeInOut)) { TextState("Retry") }
      for index in 1...2 {
        ButtonState(action: .send(nil)) { TextState("Later \(index)") }
      }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("Pick one.")
    }
    #expect(
      dialog
        == ConfirmationDialogState(
          title: "Share or delete?", titleVisibility: .visible, message: "Pick one.",
          buttons: [
            ButtonState(action: .share, label: "Share"),
            ButtonState(role: .destructive, action: .delete, label: "Delete"),
            ButtonState(
              action: .animatedSend(.retry, animation: .easeInOut), label: { TextState("Retry") }),
            ButtonState(label: "Later 1"),
            ButtonState(label: "Later 2"),
            ButtonState(role: .cancel, label: "Cancel"),
          ]))
    #expect(dialog.buttons[2].animation == .easeInOut)
    #expect(PresentationAction.press(dialog.buttons[0]) == .presented(.share))
    #expect(PresentationAction.press(dialog.buttons[3]) == .dismiss)
  }
}

// MARK: - Shared($items[id: id])

extension Engine.TCAMigrationSpellingTests {
  // docs:begin MigratingFromTCA
  struct Ingredient: Codable, Equatable, Identifiable, Sendable {
    var id: Int
    var name: String
  }

  struct EditIngredient: Reducer {
    struct State: Equatable {
      @Shared var ingredient: Ingredient
    }
    enum Action: Equatable { case rename(String) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .rename(let name):
        state.ingredient.name = name
        return .none
      }
    }
  }

  struct Ingredients: Reducer {
    struct State: Equatable {
      @Shared var ingredients: IdentifiedArrayOf<Ingredient>
      @Presents var edit: EditIngredient.State?
    }
    @CasePathable
    enum Action: Equatable {
      case delete(id: Int)
      case edit(PresentationAction<EditIngredient.Action>)
      case editButtonTapped(id: Int)
    }

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .delete(let id):
          state.$ingredients.withLock { _ = $0.remove(id: id) }
          return .none
        case .edit:
          return .none
        case .editButtonTapped(let id):
          guard let ingredient = Shared(state.$ingredients[id: id]) else { return .none }
          state.edit = EditIngredient.State(ingredient: ingredient)
          return .none
        }
      }
      .ifLet(\.$edit, action: \.edit) { EditIngredient() }
    }
  }
  // docs:end

  @Test func anElementOfASharedArrayIsUnwrappedAndOutlivesItsRemoval() {
    let ingredients = Shared(
      value: IdentifiedArray(uniqueElements: [Ingredient(id: 1, name: "Salt")]))
    let store = Store(initialState: Ingredients.State(ingredients: ingredients)) { Ingredients() }
    store.send(.editButtonTapped(id: 2))
    #expect(store.edit == nil)
    store.send(.editButtonTapped(id: 1))
    store.send(.edit(.presented(.rename("Sea salt"))))
    #expect(ingredients.wrappedValue[id: 1]?.name == "Sea salt")
    #expect(store.edit?.ingredient.name == "Sea salt")

    store.send(.delete(id: 1))
    #expect(ingredients.wrappedValue.isEmpty)
    #expect(store.edit?.ingredient == Ingredient(id: 1, name: "Sea salt"))
    store.send(.edit(.presented(.rename("Pepper"))))
    #expect(ingredients.wrappedValue.isEmpty)
    #expect(store.edit?.ingredient.name == "Pepper")
  }

  @Test func anUnwrappedElementSeesLaterWritesToIt() {
    let ingredients = Shared(
      value: IdentifiedArray(uniqueElements: [Ingredient(id: 1, name: "Salt")]))
    let salt = Shared(ingredients[id: 1])
    #expect(salt?.wrappedValue.name == "Salt")
    ingredients.withLock { $0[id: 1]?.name = "Sea salt" }
    #expect(salt?.wrappedValue.name == "Sea salt")
    #expect(Shared(ingredients[id: 3]) == nil)
  }
}

// MARK: - Key.Default

// docs:begin MigratingFromTCA
extension SharedKey where Self == AppStorageKey<Bool>.Default {
  static var hasSeenTour: Self { Self[.appStorage("hasSeenTour"), default: false] }
}

extension SharedKey where Self == InMemoryKey<Int>.Default {
  static var launchCount: Self { Self[.inMemory("launchCount"), default: 1] }
}

extension SharedKey where Self == FileStorageKey<[String]>.Default {
  static var recentSearches: Self {
    Self[.fileStorage(URL(filePath: "/tmp/recent-searches.json")), default: ["soup"]]
  }
}
// docs:end

extension Engine.TCAMigrationSpellingTests {
  struct Tour: Reducer {
    struct State: Equatable {
      @Shared(.hasSeenTour) var hasSeenTour
      @Shared(.launchCount) var launchCount
      @Shared(.recentSearches) var recentSearches
    }
    enum Action: Equatable { case finish }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.hasSeenTour = true
      state.launchCount += 1
      state.recentSearches.append("stew")
      return .none
    }
  }

  @Test func aKeyDefaultInSwiftSharingsSpellingHasItsDefault() {
    withSharedStorage(.inMemory()) {
      let store = Store(initialState: Tour.State()) { Tour() }
      #expect(store.hasSeenTour == false)
      #expect(store.launchCount == 1)
      #expect(store.recentSearches == ["soup"])
      store.send(.finish)
      @Shared(.appStorage("hasSeenTour")) var hasSeenTour = false
      @Shared(.inMemory("launchCount")) var launchCount = 0
      #expect(hasSeenTour == true)
      #expect(launchCount == 2)
      #expect(store.recentSearches == ["soup", "stew"])
    }
  }
}
