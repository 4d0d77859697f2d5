import CasePaths
import Clocks
import Foundation
import StatecraftTesting
import Testing

@testable import Statecraft

/// A form shown as one case of an enum destination, which turns itself into an alert.
/// Its case paths are the `@CasePathable` macro's.
struct Wizard: Reducer {
  struct State: Equatable, Sendable {
    @Presents var destination: Destination.State?
    var quits = 0
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case destination(PresentationAction<Destination.Action>)
    case start
  }

  struct Destination: Reducer {
    @CasePathable
    enum State: Equatable, Sendable {
      case form(Ticker.State)
      case alert(AlertState<Action.Alert>)
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case form(Ticker.Action)
      case alert(Alert)

      enum Alert: Equatable, Sendable {
        case quit
        case stay
      }
    }

    static let quitAlert = AlertState<Action.Alert>(
      title: "Quit?",
      buttons: [
        ButtonState(role: .destructive, action: .quit, label: "Quit"),
        ButtonState(role: .cancel, action: .stay, label: "Stay"),
      ])

    let clock: TestClock<Duration>

    var body: some Reducer<State, Action> {
      Scope(state: \.form, action: \.form) { Ticker(clock: clock) }
      Reduce { state, action in
        if case .form(.edit("quit")) = action { state = .alert(Self.quitAlert) }
        return .none
      }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start: state.destination = .form(Ticker.State())
      case .destination(.presented(.alert(.quit))): state.quits += 1
      case .destination: break
      }
      return .none
    }
    .ifLet(\.$destination, action: \.destination) { Destination(clock: clock) }
  }
}

/// A presented note that is `Identifiable`: a copy assigned back is the same note.
struct NoteEditor: Reducer {
  struct Note: Reducer {
    struct State: Equatable, Sendable, Identifiable {
      let id: Int
      var title = ""
      var ticks = 0
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case startTimer
      case tick
    }

    let clock: TestClock<Duration>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .startTimer:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  struct State: Equatable, Sendable {
    @Presents var note: Note.State?
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case note(PresentationAction<Note.Action>)
    case open(id: Int)
    case rename(String)
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .open(let id):
        state.note = Note.State(id: id)
      case .rename(let title):
        // A copy, changed and assigned back.
        guard var note = state.note else { break }
        note.title = title
        state.note = note
      case .note:
        break
      }
      return .none
    }
    .ifLet(\.$note, action: \.note) { Note(clock: clock) }
  }
}

/// A stack whose parent reorders and edits it directly.
struct Reorder: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Ticker.State>()
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Ticker>)
    case push(Int)
    case swapFirstTwo
    case reverse
    case sortByTicks
    case remove(StackElementID)
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push(let ticks): state.path.append(Ticker.State(ticks: ticks))
      case .swapFirstTwo: state.path.swapAt(0, 1)
      case .reverse: state.path.reverse()
      case .sortByTicks: state.path.sort { $0.ticks < $1.ticks }
      case .remove(let id): state.path[id: id] = nil
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: \.path) { Ticker(clock: clock) }
  }
}

/// A reactor that presents an alert and pushes screens with navigation state values; its
/// `reduce` handles the dismissal and the pops itself (a reactor has no `ifLet` or `forEach`).
final class TrashReactor: Reactor {
  struct State: Equatable, Sendable {
    @Presents var alert: AlertState<Action.Alert>?
    var path = StackState<Int>()
    var deleted = 0
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case deleteTapped
    case alert(PresentationAction<Alert>)
    case open(Int)
    case path(StackAction<Int, Never>)

    enum Alert: Equatable, Sendable { case confirm }
  }

  static let confirmAlert = AlertState<Action.Alert>(
    title: "Empty the trash?",
    buttons: [ButtonState(role: .destructive, action: .confirm, label: "Empty")])

  func mutate(state: State, action: Action) -> Effect<Action> { .send(action) }

  func reduce(state: inout State, mutation: Action) {
    switch mutation {
    case .deleteTapped: state.alert = Self.confirmAlert
    case .alert(.presented(.confirm)):
      state.deleted += 1
      state.alert = nil
    case .alert(.dismiss): state.alert = nil
    case .open(let screen): state.path.append(screen)
    case .path(.popFrom(let id)): state.path.pop(from: id)
    case .path(.push(let id, let screen)): state.path.append(screen, id: id)
    case .path(.element): break
    }
  }
}

/// A parent that runs `Presenter` on state it scoped by hand, not through a `Scope`.
struct HandScoped: Reducer {
  struct State: Equatable, Sendable {
    var inner = Presenter.State()
  }

  enum Action: Equatable, Sendable {
    case inner(Presenter.Action)
  }

  let clock: TestClock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .inner(let action):
      return Presenter(clock: clock).reduce(into: &state.inner, action: action).map(Action.inner)
    }
  }
}

extension Engine {
  /// Navigation at its edges: a child that changes its own case, stray dismissals, links tapped
  /// again, copies assigned back, reordered and edited stacks, encoding, enum destination cases,
  /// and a replaced state.
  @MainActor
  @Suite struct NavigationEdgeTests {
    // MARK: - Presentation

    @Test func aChildThatTurnsItselfIntoAnAlertShowsItAndItsButtonDismissesIt() {
      let store = Store(initialState: Wizard.State()) { Wizard(clock: TestClock()) }
      store.send(.start)
      store.send(.destination(.presented(.form(.edit("quit")))))
      #expect(store.destination == .alert(Wizard.Destination.quitAlert))
      store.send(.destination(.presented(.alert(.quit))))
      #expect(store.destination == nil)
      #expect(store.quits == 1)
    }

    @Test func aDismissWhileNothingIsPresentedIsReported() async {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      store.send(.showSheet)
      store.send(.sheet(.dismiss))
      await expectOneFailure(containing: ["received a '.dismiss' while nothing was presented"]) {
        store.send(.sheet(.dismiss))
      }
      #expect(store.sheet == nil)
    }

    @Test func aChildThatAsksTwiceToBeDismissedIsDismissedOnceAndNothingIsReported() async {
      let store = Store(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      store.send(.showSheet)
      // `.saveTapped` dismisses from a `.run`; two of them in flight ask twice.
      let first = store.send(.sheet(.presented(.saveTapped)))
      let second = store.send(.sheet(.presented(.saveTapped)))
      await first.finish()
      await second.finish()
      #expect(store.sheet == nil)
      #expect(store.runningEffectCount == 0)
    }

    @Test func anIdentifiableChildAssignedBackKeepsItsIdentityAndItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: NoteEditor.State()) { NoteEditor(clock: clock) }
      store.send(.open(id: 1))
      let presented = store.withState { $0.$note.id }
      store.send(.note(.presented(.startTimer)))
      await clock.advance(by: .seconds(1))
      #expect(store.note?.ticks == 1)
      store.send(.rename("Groceries"))
      #expect(store.withState { $0.$note.id } == presented)
      await clock.advance(by: .seconds(1))
      #expect(store.note == NoteEditor.Note.State(id: 1, title: "Groceries", ticks: 2))
      // Another note (another id) is a fresh presentation: the timer ends with the first.
      store.send(.open(id: 2))
      #expect(store.withState { $0.$note.id } != presented)
      await clock.advance(by: .seconds(3))
      #expect(store.note == NoteEditor.Note.State(id: 2))
      #expect(store.runningEffectCount == 0)
    }

    @Test func aNonIdentifiableChildAssignedAgainIsAFreshPresentation() {
      var state = Presenter.State()
      state.sheet = Ticker.State()
      let first = state.$sheet.id
      var copy = state.sheet!
      copy.draft = "x"
      state.sheet = copy
      #expect(state.$sheet.id != first)
    }

    // MARK: - Enum destinations, one case at a time

    @Test func oneCaseOfAnEnumDestinationHasItsOwnChildStoreAndBinding() {
      let store = Store(initialState: Wizard.State()) { Wizard(clock: TestClock()) }
      #expect(store.scope(state: \.$destination[case: \.form], action: \.destination.form) == nil)
      store.send(.start)
      let form = store.scope(state: \.$destination[case: \.form], action: \.destination.form)
      #expect(form != nil)
      #expect(store.scope(state: \.$destination[case: \.alert], action: \.destination.alert) == nil)
      form?.send(.edit("Draft"))
      #expect(store.destination == .form(Ticker.State(draft: "Draft")))
      #expect(
        store.withState { $0.$destination[case: \.form].id }
          == store.withState { $0.$destination.id })

      form?.send(.edit("quit"))
      let alert = store.binding(
        isPresented: \.$destination[case: \.alert], action: \.destination.alert)
      #expect(alert.wrappedValue)
      let sheet = store.binding(
        presenting: \.$destination[case: \.form], action: \.destination.form)
      #expect(sheet.wrappedValue == nil)
      alert.wrappedValue = false
      #expect(store.destination == nil)
      #expect(store.quits == 0)
    }

    @Test func theTestStoreReachesOneCaseOfADestinationByItsCasePath() async {
      let store = TestStore(initialState: Wizard.State()) { Wizard(clock: TestClock()) }
      await store.send(.start) { $0.destination = .form(Ticker.State()) }
      await store.send(\.destination.presented.form.edit, "Draft") {
        $0.destination = .form(Ticker.State(draft: "Draft"))
      }
      await store.send(\.destination.presented.form.edit, "quit") {
        $0.destination = .alert(Wizard.Destination.quitAlert)
      }
      await store.send(\.destination.alert, .presented(.quit)) {
        $0.destination = nil
        $0.quits = 1
      }
    }

    // MARK: - Stacks

    @Test func aLinkTappedAgainAfterItsScreenWasPoppedPushesItAgainWithAFreshID() {
      let store = Store(initialState: Drill.State()) { Drill(clock: TestClock()) }
      let path = store.binding(path: \.path, action: \.path)
      let link = StackPathComponent(Ticker.State(ticks: 7))
      path.wrappedValue = [link]
      #expect(store.path.ids == [link.id])
      path.wrappedValue = []
      path.wrappedValue = [link]
      #expect(Array(store.path) == [Ticker.State(ticks: 7)])
      #expect(store.path.ids.count == 1 && store.path.ids[0] > link.id)
      // Tapped twice in one write (a double tap): two screens, two ids.
      path.wrappedValue = [link, link]
      #expect(store.path.count == 2)
      #expect(Set(store.path.ids).count == 2)
    }

    @Test func removingAScreenFromTheMiddleThroughTheBindingKeepsTheOnesAbove() async {
      let clock = TestClock()
      let store = Store(initialState: Drill.State()) { Drill(clock: clock) }
      let path = store.binding(path: \.path, action: \.path)
      path.wrappedValue = (1...3).map { StackPathComponent(Ticker.State(ticks: $0)) }
      let ids = Array(store.path.ids)
      store.send(.path(.element(id: ids[1], action: .startTimer)))
      let shown = path.wrappedValue
      path.wrappedValue = [shown[0], shown[2]]
      #expect(Array(store.path) == [Ticker.State(ticks: 1), Ticker.State(ticks: 3)])
      #expect(store.path.ids[0] == ids[0])
      // The removed screen's timer ended with it.
      await clock.advance(by: .seconds(2))
      #expect(Array(store.path) == [Ticker.State(ticks: 1), Ticker.State(ticks: 3)])
      #expect(store.runningEffectCount == 0)
    }

    @Test func aReorderedStackKeepsEachElementsIDAndEffectsWithItsState() async {
      let clock = TestClock()
      let store = Store(initialState: Reorder.State()) { Reorder(clock: clock) }
      store.send(.push(100))
      store.send(.push(200))
      store.send(.push(300))
      let ids = Array(store.path.ids)
      store.send(.path(.element(id: ids[0], action: .startTimer)))

      store.send(.swapFirstTwo)
      #expect(store.path.map(\.ticks) == [200, 100, 300])
      #expect(Array(store.path.ids) == [ids[1], ids[0], ids[2]])
      await clock.advance(by: .seconds(1))
      #expect(store.path[id: ids[0]]?.ticks == 101)

      store.send(.reverse)
      #expect(Array(store.path.ids) == [ids[2], ids[0], ids[1]])
      await clock.advance(by: .seconds(1))
      #expect(store.path.map(\.ticks) == [300, 102, 200])

      store.send(.sortByTicks)
      #expect(Array(store.path.ids) == [ids[0], ids[1], ids[2]])
      #expect(store.path.map(\.ticks) == [102, 200, 300])
      await clock.advance(by: .seconds(1))
      #expect(store.path[id: ids[0]]?.ticks == 103)
      #expect(store.path[id: ids[1]]?.ticks == 200)
    }

    @Test func settingAnElementToNilRemovesOnlyItAndEndsItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Reorder.State()) { Reorder(clock: clock) }
      store.send(.push(1))
      store.send(.push(2))
      store.send(.push(3))
      let ids = Array(store.path.ids)
      store.send(.path(.element(id: ids[1], action: .startTimer)))
      store.send(.remove(ids[1]))
      #expect(Array(store.path.ids) == [ids[0], ids[2]])
      await clock.advance(by: .seconds(2))
      #expect(store.path.map(\.ticks) == [1, 3])
      #expect(store.runningEffectCount == 0)

      var stack = StackState([Ticker.State()])
      withKnownIssue {
        stack[id: StackElementID()] = Ticker.State(ticks: 9)
      } matching: {
        $0.description.contains("at an id it doesn't hold")
      }
      #expect(Array(stack) == [Ticker.State()])
    }

    // MARK: - Encoding

    @Test func stacksAndPresentationsRoundTripThroughJSONWithFreshIDs() throws {
      struct Saved: Codable, Equatable {
        var path = StackState<Int>()
        @Presents var sheet: String?
      }
      var saved = Saved()
      saved.path = [1, 2, 3]
      saved.sheet = "draft"
      let data = try JSONEncoder().encode(saved)
      #expect(String(decoding: data, as: UTF8.self).contains("[1,2,3]"))
      let decoded = try JSONDecoder().decode(Saved.self, from: data)
      #expect(decoded == saved)
      #expect(decoded.path.count == 3)
      #expect(decoded.path.ids.allSatisfy { $0 > saved.path.ids.last! })
      #expect(decoded.$sheet.id != nil && decoded.$sheet.id != saved.$sheet.id)

      let empty = try JSONDecoder().decode(Saved.self, from: JSONEncoder().encode(Saved()))
      #expect(empty.path.isEmpty && empty.sheet == nil && empty.$sheet.id == nil)
    }

    // MARK: - A reactor's navigation state

    @Test func aReactorPresentsAndPushesWithNavigationStateAndTheBindings() {
      let store = Store(initialState: TrashReactor.State(), reactor: TrashReactor())
      let alert = store.binding(isPresented: \.$alert, action: \.alert)
      #expect(!alert.wrappedValue)
      store.send(.deleteTapped)
      #expect(store.alert == TrashReactor.confirmAlert)
      // The view dismissed it (a tap outside): the reactor hears `.dismiss`.
      store.binding(isPresented: \.$alert, action: \.alert).wrappedValue = false
      #expect(store.alert == nil)
      store.send(.deleteTapped)
      store.send(.alert(.presented(.confirm)))
      #expect(store.deleted == 1 && store.alert == nil)

      store.send(.open(1))
      store.send(.open(2))
      let path = store.binding(path: \.path, action: \.path)
      #expect(path.wrappedValue.map(\.state) == [1, 2])
      path.wrappedValue.removeLast()  // the back button
      #expect(Array(store.path) == [1])
    }

    /// Issue 27, bug 3: the id a view gave a screen is the id the stack keeps, so SwiftUI sees
    /// one screen pushed, not the path replaced.
    @Test func aScreenPushedThroughAReactorsPathBindingKeepsTheViewsID() {
      let store = Store(initialState: TrashReactor.State(), reactor: TrashReactor())
      store.send(.open(1))
      let path = store.binding(path: \.path, action: \.path)
      let pushed = StackPathComponent(2)
      path.wrappedValue.append(pushed)
      #expect(Array(store.path) == [1, 2])
      #expect(store.path.ids.last == pushed.id)
      #expect(path.wrappedValue.map(\.id) == Array(store.path.ids))
    }

    @Test func appendingWithAnIDTheStackHasUsedIsReportedAndGetsAFreshID() {
      var stack = StackState<Int>()
      let used = StackElementID()
      stack.append(1)
      withKnownIssue {
        stack.append(2, id: used)
      } matching: {
        $0.description.contains("an id the stack has already used")
      }
      #expect(Array(stack) == [1, 2])
      #expect(stack.ids.last != used && stack.ids.count == 2)
    }

    // MARK: - A presenter run on state scoped by hand

    @Test func aPresenterRunByHandStillEndsTheEffectsOfAReplacedOrDismissedChild() async {
      let clock = TestClock()
      let store = Store(initialState: HandScoped.State()) { HandScoped(clock: clock) }
      store.send(.inner(.showSheet))
      let replaced = store.send(.inner(.sheet(.presented(.tickLater))))
      store.send(.inner(.showSheet))
      await clock.run()
      await replaced.finish()
      #expect(store.inner.sheet == Ticker.State())

      // A tick after the dismissal would be reported as an action while nothing is presented.
      let dismissed = store.send(.inner(.sheet(.presented(.tickLater))))
      store.send(.inner(.sheet(.dismiss)))
      await clock.run()
      await dismissed.finish()
      #expect(store.inner.sheet == nil)
      #expect(store.runningEffectCount == 0)
    }

    // MARK: - A state replaced outside the reducer

    @Test func aChildLeftOutOfAReplacedStateHasItsEffectsCancelled() async throws {
      let clock = TestClock()
      let store = Store(initialState: Presenter.State()) { Presenter(clock: clock) }
      store.send(.showSheet)
      let past = store.state
      store.send(.showSheet)
      let later = store.send(.sheet(.presented(.tickLater)))
      #expect(store.runningEffectCount == 1)
      // Back to the earlier presentation (time travel): the child that started the effect is
      // not in that state.
      #expect(store.core.replaceState(past))
      await clock.run()
      await later.finish()
      #expect(store.sheet == Ticker.State())
      #expect(store.runningEffectCount == 0)
    }
  }
}
