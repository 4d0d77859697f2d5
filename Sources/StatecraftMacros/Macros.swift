// The StatecraftMacros product: TCA's macro spellings over Statecraft. Import it instead of
// Statecraft (it re-exports Statecraft and CasePaths) in a feature written with `@Reducer` and
// `@ObservableState`. It builds swift-syntax; the Statecraft product never does.
@_exported import CasePaths
@_exported import IdentifiedCollections
@_exported import Statecraft

/// Makes a struct a reducer, or an enum of reducers a destination or a path: TCA's `@Reducer`.
///
/// On a struct, it adds the `Reducer` conformance, and `@CasePathable` on the
/// nested `Action` enum (and on a `State` enum, with `@dynamicMemberLookup`), so that
/// `Scope(state: \.child, action: \.child)` and `store.send(.child(...))` work:
///
/// ```swift
/// @Reducer
/// struct Counter {
///   @ObservableState
///   struct State: Equatable { var count = 0 }
///   enum Action { case increment }
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
///
/// On an enum whose cases each hold a reducer or a value, it writes the `State` and `Action`
/// enums, a static `body` with a `Scope` per reducer case, and the `CaseReducer`
/// conformance, so that `.ifLet(\.$destination, action: \.destination)` and
/// `.forEach(\.path, action: \.path)` need no child closure:
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case addBook(AddBook)              // a reducer: `AddBook.State`, `AddBook.Action`
///   case alert(AlertState<Alert>)      // a value: its buttons' `Alert` is the action
///   @ReducerCaseIgnored
///   case note(String)                  // a value with no action
/// }
/// extension Destination.State: Equatable {}
/// ```
///
/// It also writes `CaseScope`, an enum with a child store per reducer case and the values of the
/// others, and the `CaseScopable` conformance, so that a view switches on a destination's store:
///
/// ```swift
/// switch store.case {
/// case let .addBook(store): AddBookView(store: store)
/// case let .alert(alert): AlertView(alert)
/// case let .note(text): Text(text)
/// }
/// ```
///
/// A case of several values (`case meeting(Meeting, syncUp: SyncUp)`) or none is state only,
/// as `@ReducerCaseIgnored` makes one. A reducer case's default value is the reducer it runs:
/// `case detail(Detail = Detail(isEditable: false))`. Misuse is an error where it is written:
/// `@Reducer` on a class or an actor, a struct with no `State`, an ephemeral case with no value
/// or with several.
@attached(
  member, names: named(State), named(Action), named(body), named(CaseScope), named(scope))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer, CaseScopable)
public macro Reducer() = #externalMacro(module: "StatecraftMacrosPlugin", type: "ReducerMacro")

/// `@Reducer` on an enum, with conformances for the `State` and `Action` it writes:
/// `@Reducer(state: .equatable, .sendable, action: .equatable)`. TCA's deprecated spelling,
/// accepted so that a feature moves across unchanged, and deprecated here too.
@available(*, deprecated, message: "Define your conformance using an extension, instead")
@attached(
  member, names: named(State), named(Action), named(body), named(CaseScope), named(scope))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer, CaseScopable)
public macro Reducer(state: _SynthesizedConformance..., action: _SynthesizedConformance...) =
  #externalMacro(module: "StatecraftMacrosPlugin", type: "ReducerMacro")

/// A conformance that `@Reducer(state:action:)` adds to the `State` or `Action` it writes.
@available(*, deprecated, message: "Define your conformance using an extension, instead")
public struct _SynthesizedConformance: Sendable {}

@available(*, deprecated, message: "Define your conformance using an extension, instead")
extension _SynthesizedConformance {
  /// `Codable`.
  public static let codable = Self()
  /// `Decodable`.
  public static let decodable = Self()
  /// `Encodable`.
  public static let encodable = Self()
  /// `Equatable`.
  public static let equatable = Self()
  /// `Hashable`.
  public static let hashable = Self()
  /// `Sendable`.
  public static let sendable = Self()
}

/// On a view that holds a `store`, TCA's `@ViewAction(for:)`: the `ViewActionSending`
/// conformance, whose `send(_:)` wraps the view's actions in the store action's `view` case.
///
/// ```swift
/// @Reducer
/// struct Feed {
///   struct State { var items: [Item] = [] }
///   enum Action: ViewAction {
///     case view(View)
///     case loaded([Item])
///     enum View { case refreshTapped }
///   }
///   …
/// }
///
/// @ViewAction(for: Feed.self)
/// struct FeedView: View {
///   let store: StoreOf<Feed>
///   var body: some View {
///     Button("Refresh") { send(.refreshTapped) }  // store.send(.view(.refreshTapped))
///   }
/// }
/// ```
///
/// A type with no `store` property is an error where the macro is written.
@attached(extension, conformances: ViewActionSending)
public macro ViewAction<R: Reducer>(for: R.Type) =
  #externalMacro(module: "StatecraftMacrosPlugin", type: "ViewActionMacro")
where R.Action: ViewAction

/// Accepted on a state, and harmless: a store already observes each key path a view reads, so
/// a Statecraft state needs no observation registrar. TCA's `@ObservableState`.
@attached(member)
public macro ObservableState() =
  #externalMacro(module: "StatecraftMacrosPlugin", type: "MarkerMacro")

/// Accepted on a state's property, and harmless (see ``ObservableState()``).
@attached(peer)
public macro ObservationStateIgnored() =
  #externalMacro(module: "StatecraftMacrosPlugin", type: "MarkerMacro")

/// Accepted on a state's property, and harmless (see ``ObservableState()``).
@attached(peer)
public macro ObservationStateTracked() =
  #externalMacro(module: "StatecraftMacrosPlugin", type: "MarkerMacro")

/// Marks a case of a `@Reducer` enum as state only: its value is kept as it is, and it has no
/// action (`case meeting(Meeting)`).
@attached(peer)
public macro ReducerCaseIgnored() =
  #externalMacro(module: "StatecraftMacrosPlugin", type: "MarkerMacro")

/// Marks a case of a `@Reducer` enum as ephemeral: its value (an `AlertState<Alert>`, a
/// `ConfirmationDialogState<Alert>`, or a type of yours with an `Action`) is its state, and its
/// buttons' action is its action. `AlertState` and `ConfirmationDialogState` cases are
/// ephemeral without the mark.
@attached(peer)
public macro ReducerCaseEphemeral() =
  #externalMacro(module: "StatecraftMacrosPlugin", type: "MarkerMacro")
