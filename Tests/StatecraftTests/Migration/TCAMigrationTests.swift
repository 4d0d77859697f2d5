import CasePathsCore
import Clocks
import IdentifiedCollections
import StatecraftTesting
import Testing

@testable import Statecraft

/// The TCA migration guide's counter (a fact, a timer), converted and run.
extension Engine {
  @MainActor
  @Suite struct TCAMigrationTests {
    // docs:begin MigratingFromTCA
    struct NumberFactClient: Sendable {
      var fetch: @Sendable (Int) async throws -> String
    }

    struct CounterFeature: Reducer {
      struct State: Equatable {
        var count = 0
        var fact: String?
        var isLoading = false
        var isTimerRunning = false
      }

      enum Action: Equatable, Sendable {
        case decrementButtonTapped
        case factButtonTapped
        case factResponse(String)
        case incrementButtonTapped
        case timerTick
        case toggleTimerButtonTapped
      }

      enum CancelID { case timer }

      let clock: any Clock<Duration>
      let numberFact: NumberFactClient

      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .decrementButtonTapped:
            state.count -= 1
            state.fact = nil
            return .none
          case .factButtonTapped:
            state.fact = nil
            state.isLoading = true
            return .run { [count = state.count, numberFact] send in
              await send(.factResponse(try await numberFact.fetch(count)))
            }
          case .factResponse(let fact):
            state.fact = fact
            state.isLoading = false
            return .none
          case .incrementButtonTapped:
            state.count += 1
            state.fact = nil
            return .none
          case .timerTick:
            state.count += 1
            state.fact = nil
            return .none
          case .toggleTimerButtonTapped:
            state.isTimerRunning.toggle()
            guard state.isTimerRunning else { return .cancel(id: CancelID.timer) }
            return .run { [clock] send in
              while true {
                try await clock.sleep(for: .seconds(1))
                await send(.timerTick)
              }
            }
            .cancellable(id: CancelID.timer)
          }
        }
      }
    }
    // docs:end

    @Test func theTimerTicksUntilToggledOff() async {
      // docs:begin MigratingFromTCA
      let clock = TestClock()
      let store = TestStore(initialState: CounterFeature.State()) {
        CounterFeature(clock: clock, numberFact: NumberFactClient { "\($0) is a good number." })
      }
      await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
      await clock.advance(by: .seconds(1))
      await store.receive(.timerTick) { $0.count = 1 }
      await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(.factResponse("1 is a good number.")) {
        $0.isLoading = false
        $0.fact = "1 is a good number."
      }
      await store.finish()
      // docs:end
    }

    @Test func aStoreDrivesTheSameFeature() async {
      let store = Store(initialState: CounterFeature.State()) {
        CounterFeature(
          clock: ImmediateClock(), numberFact: NumberFactClient { "\($0) is a good number." })
      }
      store.send(.incrementButtonTapped)
      await store.send(.factButtonTapped).finish()
      #expect(store.fact == "1 is a good number.")
    }
  }
}

/// The TCA migration guide's contacts (a sheet, an alert and a stack), converted and run.
extension Engine.TCAMigrationTests {
  // docs:begin MigratingFromTCA
  struct Contact: Equatable, Identifiable, Sendable {
    var id: Int
    var name: String
  }

  struct AddContactFeature: Reducer {
    struct State: Equatable { var contact: Contact }
    enum Action: Equatable {
      case cancelButtonTapped, saveButtonTapped
      case setName(String)
      case delegate(Delegate)
      enum Delegate: Equatable { case saveContact(Contact) }
    }

    let dismiss = DismissEffect()

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .cancelButtonTapped:
        return .run { _ in await dismiss() }
      case .saveButtonTapped:
        return .run { [contact = state.contact] send in
          await send(.delegate(.saveContact(contact)))
          await dismiss()
        }
      case .setName(let name):
        state.contact.name = name
        return .none
      case .delegate:
        return .none
      }
    }
  }

  struct ContactDetailFeature: Reducer {
    struct State: Equatable { var contact: Contact }
    enum Action: Equatable { case rename(String) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .rename(let name):
        state.contact.name = name
        return .none
      }
    }
  }

  struct ContactsFeature: Reducer {
    struct State: Equatable {
      var contacts: IdentifiedArrayOf<Contact> = []
      @Presents var destination: Destination.State?
      var path = StackState<ContactDetailFeature.State>()
    }

    enum Action: Equatable {
      case addButtonTapped
      case deleteButtonTapped(id: Contact.ID)
      case destination(PresentationAction<Destination.Action>)
      case path(StackActionOf<ContactDetailFeature>)
      enum Alert: Equatable { case confirmDeletion(id: Contact.ID) }

      static let destinationCase = AnyCasePath(embed: Action.destination) {
        if case .destination(let action) = $0 { action } else { nil }
      }
      static let pathCase = AnyCasePath(embed: Action.path) {
        if case .path(let action) = $0 { action } else { nil }
      }
    }

    /// TCA's `@Reducer enum Destination`, written out.
    struct Destination: Reducer {
      enum State: Equatable {
        case addContact(AddContactFeature.State)
        case alert(AlertState<ContactsFeature.Action.Alert>)

        static let addContactCase = AnyCasePath(embed: State.addContact) {
          if case .addContact(let state) = $0 { state } else { nil }
        }
      }
      enum Action: Equatable {
        case addContact(AddContactFeature.Action)
        case alert(ContactsFeature.Action.Alert)

        static let addContactCase = AnyCasePath(embed: Action.addContact) {
          if case .addContact(let action) = $0 { action } else { nil }
        }
      }

      var body: some Reducer<State, Action> {
        Scope(state: State.addContactCase, action: Action.addContactCase) {
          AddContactFeature()
        }
      }
    }

    let uuid: @Sendable () -> Int

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .addButtonTapped:
          state.destination = .addContact(
            AddContactFeature.State(contact: Contact(id: uuid(), name: "")))
          return .none
        case .destination(.presented(.addContact(.delegate(.saveContact(let contact))))):
          state.contacts.append(contact)
          return .none
        case .destination(.presented(.alert(.confirmDeletion(let id)))):
          state.contacts.remove(id: id)
          return .none
        case .destination:
          return .none
        case .deleteButtonTapped(let id):
          state.destination = .alert(
            AlertState(
              title: "Are you sure?",
              buttons: [
                ButtonState(role: .destructive, action: .confirmDeletion(id: id), label: "Delete")
              ]))
          return .none
        case .path:
          return .none
        }
      }
      .ifLet(\.$destination, action: Action.destinationCase) { Destination() }
      .forEach(\.path, action: Action.pathCase) { ContactDetailFeature() }
    }
  }
  // docs:end

  @Test func aContactIsAddedInASheetThatDismissesItself() async {
    // docs:begin MigratingFromTCA
    let store = TestStore(initialState: ContactsFeature.State()) {
      ContactsFeature(uuid: { 0 })
    }
    await store.send(.addButtonTapped) {
      $0.destination = .addContact(
        AddContactFeature.State(contact: Contact(id: 0, name: "")))
    }
    await store.send(.destination(.presented(.addContact(.setName("Blob"))))) {
      $0.destination = .addContact(
        AddContactFeature.State(contact: Contact(id: 0, name: "Blob")))
    }
    await store.send(.destination(.presented(.addContact(.saveButtonTapped))))
    await store.receive(
      .destination(.presented(.addContact(.delegate(.saveContact(Contact(id: 0, name: "Blob"))))))
    ) {
      $0.contacts = [Contact(id: 0, name: "Blob")]
    }
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    // docs:end
  }

  @Test func aContactIsDeletedAfterAnAlertAndEditedOnAPushedScreen() async {
    // docs:begin MigratingFromTCA
    var state = ContactsFeature.State()
    state.contacts = [Contact(id: 0, name: "Blob"), Contact(id: 1, name: "Blob Jr.")]
    let store = TestStore(initialState: state) { ContactsFeature(uuid: { 2 }) }
    await store.send(.deleteButtonTapped(id: 1)) {
      $0.destination = .alert(
        AlertState(
          title: "Are you sure?",
          buttons: [
            ButtonState(role: .destructive, action: .confirmDeletion(id: 1), label: "Delete")
          ]))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(id: 1))))) {
      $0.contacts.remove(id: 1)
      $0.destination = nil
    }
    let detail = ContactDetailFeature.State(contact: Contact(id: 0, name: "Blob"))
    await store.send(.path(.push(id: 0, state: detail))) {
      $0.path[id: 0] = detail
    }
    await store.send(.path(.element(id: 0, action: .rename("Blob Sr.")))) {
      $0.path[id: 0]?.contact.name = "Blob Sr."
    }
    await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
    // docs:end
  }
}
