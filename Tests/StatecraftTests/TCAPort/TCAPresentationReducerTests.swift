import CasePaths
import Clocks
import ConcurrencyExtras
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The Composable Architecture's `PresentationReducerTests` that found gaps in Statecraft (issue
  /// 27), ported to Statecraft's spelling: dependencies are the reducers' properties (a clock, an
  /// id generator, a `DismissEffect`), alerts are `AlertState(title:buttons:)`, and a timed
  /// assertion is a count of comparisons.
  @MainActor
  @Suite struct TCAPresentationReducerTests {
    // MARK: - PresentationState[case:]

    @CasePathable
    enum IntOrText: Equatable {
      case int(Int)
      case text(String)
    }

    struct IntOrTextParent: Equatable {
      @Presents var child: IntOrText?
    }

    @Test func presentationStateSubscriptCase() {
      var parent = IntOrTextParent(child: .int(42))
      let presentation = parent.$child.id

      parent.$child[case: \.int]? += 1
      #expect(parent.child == .int(43))
      #expect(parent.$child.id == presentation)

      parent.$child[case: \.int] = nil
      #expect(parent.child == nil)
    }

    @Test func presentationStateSubscriptCaseUnexpected() {
      var parent = IntOrTextParent(child: .int(42))

      withKnownIssue {
        parent.$child[case: \.text]?.append("!")
      } matching: {
        $0.description.contains(#"Can't modify unrelated case "int""#)
      }
      withKnownIssue {
        parent.$child[case: \.text] = nil
      } matching: {
        $0.description.contains(#"Can't modify unrelated case "int""#)
      }
      #expect(parent.child == .int(42))
    }

    // MARK: - An enum destination

    struct Child: Reducer {
      struct State: Equatable, Identifiable {
        let id: Int
        var count = 0
      }
      enum Action: Equatable {
        case closeButtonTapped
        case startButtonTapped
        case tick
      }
      let clock: TestClock<Duration>
      let dismiss = DismissEffect()
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .closeButtonTapped:
            return .run { _ in await dismiss() }
          case .startButtonTapped:
            return .run { [clock] send in
              for await _ in clock.timer(interval: .seconds(1)) {
                await send(.tick)
              }
            }
          case .tick:
            state.count += 1
            return .none
          }
        }
      }
    }

    struct Parent: Reducer {
      struct State: Equatable {
        @Presents var destination: Destination.State?
        var isDeleted = false
      }
      @CasePathable
      enum Action: Equatable {
        case destination(PresentationAction<Destination.Action>)
        case presentAlert
        case presentChild(id: Int? = nil)
      }
      struct Destination: Reducer {
        @CasePathable
        enum State: Equatable {
          case alert(AlertState<Action.Alert>)
          case child(Child.State)
        }
        @CasePathable
        enum Action: Equatable {
          case alert(Alert)
          case child(Child.Action)

          enum Alert: Equatable {
            case deleteButtonTapped
          }
        }
        let clock: TestClock<Duration>
        var body: some Reducer<State, Action> {
          Scope(state: \.alert, action: \.alert) { EmptyReducer() }
          Scope(state: \.child, action: \.child) { Child(clock: clock) }
        }
      }

      static let alert = AlertState<Destination.Action.Alert>(
        title: "Uh oh!",
        buttons: [ButtonState(role: .destructive, action: .deleteButtonTapped, label: "Delete")])

      let clock: TestClock<Duration>
      let nextID: @Sendable () -> Int

      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .destination(.presented(.alert(.deleteButtonTapped))):
            state.isDeleted = true
            return .none
          case .destination:
            return .none
          case .presentAlert:
            state.destination = .alert(Self.alert)
            return .none
          case .presentChild(let id):
            state.destination = .child(Child.State(id: id ?? nextID()))
            return .none
          }
        }
        .ifLet(\.$destination, action: \.destination) { Destination(clock: clock) }
      }
    }

    static func incrementingIDs() -> @Sendable () -> Int {
      let next = LockIsolated(0)
      return {
        next.withValue { id in
          defer { id += 1 }
          return id
        }
      }
    }

    /// Issue 27, bug 1: re-presenting the destination in the same case with the same id keeps the
    /// child's effects (an enum child's identity is its case and its payload's id).
    @Test func enumPresentation() async {
      let clock = TestClock()
      let store = TestStore(initialState: Parent.State()) {
        Parent(clock: clock, nextID: Self.incrementingIDs())
      }

      await store.send(.presentChild()) {
        $0.destination = .child(Child.State(id: 0))
      }
      await store.send(.destination(.presented(.child(.startButtonTapped))))
      await clock.advance(by: .seconds(2))
      await store.receive(.destination(.presented(.child(.tick)))) {
        $0.$destination[case: \.child]?.count = 1
      }
      await store.receive(.destination(.presented(.child(.tick)))) {
        $0.$destination[case: \.child]?.count = 2
      }
      await store.send(.destination(.presented(.child(.closeButtonTapped))))
      await store.receive(.destination(.dismiss)) {
        $0.destination = nil
      }
      await store.send(.presentChild()) {
        $0.destination = .child(Child.State(id: 1))
      }
      await clock.advance(by: .seconds(2))
      await store.send(.destination(.presented(.child(.startButtonTapped))))
      await clock.advance(by: .seconds(2))
      await store.receive(.destination(.presented(.child(.tick)))) {
        $0.$destination[case: \.child]?.count = 1
      }
      await store.receive(.destination(.presented(.child(.tick)))) {
        $0.$destination[case: \.child]?.count = 2
      }
      await store.send(.presentChild(id: 1)) {
        $0.$destination[case: \.child]?.count = 0
      }
      await clock.advance(by: .seconds(2))
      await store.receive(.destination(.presented(.child(.tick)))) {
        $0.$destination[case: \.child]?.count = 1
      }
      await store.receive(.destination(.presented(.child(.tick)))) {
        $0.$destination[case: \.child]?.count = 2
      }
      await store.send(.presentAlert) {
        $0.destination = .alert(Parent.alert)
      }
      await store.send(.destination(.presented(.alert(.deleteButtonTapped)))) {
        $0.destination = nil
        $0.isDeleted = true
      }
    }

    /// Issue 27, bug 2: a child action for another case is reported, and leaves the alert up.
    @Test func leaveAlertPresentedForNonAlertActions() async {
      let store = TestStore(initialState: Parent.State()) {
        Parent(clock: TestClock(), nextID: Self.incrementingIDs())
      }
      await store.send(.presentAlert) {
        $0.destination = .alert(Parent.alert)
      }
      await withKnownIssue {
        await store.send(.destination(.presented(.child(.tick))))
      } matching: {
        $0.description.contains("received a child action while the state was in another case")
      }
      #expect(store.state.destination == .alert(Parent.alert))
    }

    struct ResettingChild: Reducer {
      struct State: Equatable, Identifiable {
        var id: Int
        var count = 0
      }
      enum Action: Equatable {
        case resetIdentity
        case response
        case tap
      }
      let clock: TestClock<Duration>
      let nextID: @Sendable () -> Int
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .resetIdentity:
            state.count = 0
            state.id = nextID()
            return .none
          case .response:
            state.count = 999
            return .none
          case .tap:
            state.count += 1
            return .run { [clock] send in
              try await clock.sleep(for: .seconds(1))
              await send(.response)
            }
          }
        }
      }
    }

    struct IdentityParent: Reducer {
      struct State: Equatable {
        @Presents var destination: Destination.State?
      }
      @CasePathable
      enum Action: Equatable {
        case destination(PresentationAction<Destination.Action>)
        case presentChild1
      }
      struct Destination: Reducer {
        @CasePathable
        enum State: Equatable {
          case child1(ResettingChild.State)
          case child2(ResettingChild.State)
        }
        @CasePathable
        enum Action: Equatable {
          case child1(ResettingChild.Action)
          case child2(ResettingChild.Action)
        }
        let clock: TestClock<Duration>
        let nextID: @Sendable () -> Int
        var body: some Reducer<State, Action> {
          Scope(state: \.child1, action: \.child1) {
            ResettingChild(clock: clock, nextID: nextID)
          }
          Scope(state: \.child2, action: \.child2) {
            ResettingChild(clock: clock, nextID: nextID)
          }
        }
      }
      let clock: TestClock<Duration>
      let nextID: @Sendable () -> Int
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .destination:
            return .none
          case .presentChild1:
            state.destination = .child1(ResettingChild.State(id: nextID()))
            return .none
          }
        }
        .ifLet(\.$destination, action: \.destination) {
          Destination(clock: clock, nextID: nextID)
        }
      }
    }

    /// A child in an enum destination that changes its own id is a new child: the old one's
    /// effect is cancelled.
    @Test func presentationDestinationEnumIdentityChange() async {
      let clock = TestClock()
      let store = TestStore(initialState: IdentityParent.State()) {
        IdentityParent(clock: clock, nextID: Self.incrementingIDs())
      }
      await store.send(.presentChild1) {
        $0.destination = .child1(ResettingChild.State(id: 0))
      }
      await store.send(.destination(.presented(.child1(.tap)))) {
        $0.$destination[case: \.child1]?.count = 1
      }
      await store.send(.destination(.presented(.child1(.resetIdentity)))) {
        $0.$destination[case: \.child1]?.id = 1
        $0.$destination[case: \.child1]?.count = 0
      }
      await clock.run()
      await store.send(.destination(.dismiss)) {
        $0.destination = nil
      }
    }

    // MARK: - Equality

    /// Issue 27, bug 4: two copies of one presentation are equal without comparing the children
    /// (TCA times a five-second `==`; this counts the calls).
    @Test func fastPathEquality() {
      @Presents var state = SlowEquatable()
      SlowEquatable.comparisons.setValue(0)
      #expect($state == $state)
      let copy = $state
      #expect(copy == $state)
      #expect(SlowEquatable.comparisons.value == 0)

      var changed = $state
      changed.wrappedValue = SlowEquatable()
      #expect(changed == $state)
      #expect(SlowEquatable.comparisons.value == 1)
    }

    // MARK: - A feature that presents itself

    @Test func nestedDismiss() async {
      let store = TestStore(initialState: NestedDismissFeature.State()) {
        NestedDismissFeature()
      }
      await store.send(.presentButtonTapped) {
        $0.child = NestedDismissFeature.State()
      }
      await store.send(.child(.presented(.presentButtonTapped))) {
        $0.child?.child = NestedDismissFeature.State()
      }
      await store.send(.child(.presented(.child(.presented(.dismissButtonTapped)))))
      await store.receive(\.child.presented.child.dismiss) {
        $0.child?.child = nil
      }
    }
  }
}

/// A child whose `==` is counted.
struct SlowEquatable: Equatable {
  static let comparisons = LockIsolated(0)
  static func == (lhs: Self, rhs: Self) -> Bool {
    comparisons.withValue { $0 += 1 }
    return true
  }
}

/// A feature that presents itself: recursive `@Presents` state and a recursive action.
struct NestedDismissFeature: Reducer {
  struct State: Equatable {
    @Presents var child: NestedDismissFeature.State?
  }
  @CasePathable
  enum Action {
    case child(PresentationAction<NestedDismissFeature.Action>)
    case dismissButtonTapped
    case presentButtonTapped
  }
  let dismiss = DismissEffect()
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child:
        return .none
      case .dismissButtonTapped:
        return .run { _ in await dismiss() }
      case .presentButtonTapped:
        state.child = State()
        return .none
      }
    }
    .ifLet(\.$child, action: \.child) {
      Self()
    }
  }
}
