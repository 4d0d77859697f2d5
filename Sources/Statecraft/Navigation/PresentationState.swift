import CasePathsCore
import ConcurrencyExtras
import CustomDump
import IssueReporting

/// Optional child state that a parent presents (a sheet, a cover, a pushed screen, an alert),
/// with an identity: each fresh presentation is a new ``PresentationID``.
///
/// Use it as a property wrapper (TCA's `@Presents`, spelled either way) and run the child with
/// `ifLet(_:action:then:)` on its projected value:
///
/// ```swift
/// struct State: Equatable {
///   @Presents var detail: Detail.State?
/// }
/// enum Action {
///   case detail(PresentationAction<Detail.Action>)
///   case showDetail
/// }
///
/// var body: some Reducer<State, Action> {
///   Reduce { state, action in
///     switch action {
///     case .showDetail: state.detail = Detail.State(); return .none
///     case .detail: return .none
///     }
///   }
///   .ifLet(\.$detail, action: \.detail) { Detail() }
/// }
/// ```
///
/// Assigning a value (`state.detail = Detail.State()`) is a fresh presentation, even over a
/// presented child: the old child's effects are cancelled and its late actions dropped. Mutating
/// the presented child in place (`state.detail?.count += 1`) keeps its identity, and so does
/// assigning an `Identifiable` child with the id of the one presented (a copy, changed and
/// assigned back). Two presentation states are equal when their children are: the identity is
/// not compared, so a test store's expected state needs no ids.
///
/// It is `Codable` when its child is, encoded as the optional child; a decoded child is a fresh
/// presentation.
@propertyWrapper
public struct PresentationState<State> {
  // NB: the child lives in a box, copied on write: a copy of the state shares it, so `==` on
  // two copies answers without comparing the children, and a feature may present itself
  // (`@Presents var child: State?` in its own `State`).
  @usableFromInline var storage: PresentationStorage<State>
  /// The identity of the presented child; nil while nothing is presented.
  public private(set) var id: PresentationID?

  /// A presentation of `wrappedValue` (a fresh identity), or nothing when it is nil.
  public init(wrappedValue: State?) {
    storage = PresentationStorage(wrappedValue)
    id = wrappedValue == nil ? nil : PresentationID()
  }

  /// The child, read from the box or written to a box of this presentation's own.
  @usableFromInline var value: State? {
    @inlinable get { storage.value }
    @inlinable _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = PresentationStorage(storage.value) }
      yield &storage.value
    }
  }

  /// The presented child state, or nil. Setting it presents afresh; mutating it in place does
  /// not.
  public var wrappedValue: State? {
    get { value }
    set {
      if newValue == nil {
        id = nil
      } else if id == nil || !Self.isSameChild(value, newValue) {
        id = PresentationID()
      }
      value = newValue
    }
    _modify {
      yield &value
      if value == nil {
        id = nil
      } else if id == nil {
        id = PresentationID()
      }
    }
  }

  /// The presentation itself, for `ifLet(\.$destination, action: \.destination)`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// Whether a child is presented.
  public var isPresented: Bool { value != nil }

  /// Whether `new`, assigned over `old`, is the same child: both `Identifiable` with the same
  /// `id` (a copy of the child, changed and assigned back), or an enum destination in the same
  /// case whose payloads are `Identifiable` with the same `id`.
  private static func isSameChild(_ old: State?, _ new: State?) -> Bool {
    guard let old, let new else { return false }
    return ChildIdentity.isSame(old, new)
  }
}

/// The `@Presents` spelling of ``PresentationState``: `@Presents var alert: AlertState<Alert>?`.
public typealias Presents<State> = PresentationState<State>

/// The identity of one presentation: a fresh presentation has a new one, never given before.
public struct PresentationID: Hashable, Comparable, Sendable, CustomStringConvertible {
  let rawValue: UInt64

  init() { rawValue = NavigationIDCounter.next() }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }
}

/// The box of a presented child.
// NB: @unchecked Sendable is safe: `PresentationState` writes the box only when it holds the only
// reference to it (copy on write), so a box that two values share is never written, and a
// `PresentationState` is `Sendable` only when its child is.
@usableFromInline
final class PresentationStorage<State>: @unchecked Sendable {
  @usableFromInline var value: State?
  @usableFromInline init(_ value: State?) { self.value = value }
}

extension PresentationState: Equatable where State: Equatable {
  /// Equal when the presented children are (the identities are not compared). Two copies of one
  /// presentation that neither changed since are equal without comparing their children.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.value == rhs.value
  }
}

extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Encodable where State: Encodable {
  /// Encodes the optional child (the identity belongs to this process and is not encoded).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

extension PresentationState: Decodable where State: Decodable {
  /// Decodes the optional child: a decoded child is a fresh presentation.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(State.self))
  }
}

extension PresentationState: CustomDumpRepresentable {
  /// Dumps as the optional child, so that a test store's diff shows the child only.
  public var customDumpValue: Any { value as Any }
}

extension PresentationState where State: CasePathable {
  /// The presentation of one case of an enum destination: presented, with the destination's
  /// identity, while the destination is in that case; nothing otherwise.
  ///
  /// It is what SwiftUI's presentation modifiers and `scope` need to show one destination:
  ///
  /// ```swift
  /// .sheet(store: store, state: \.$destination[case: \.addContact],
  ///        action: \.destination.addContact) { AddContactView(store: $0) }
  /// ```
  public subscript<Case>(case casePath: CaseKeyPath<State, Case>) -> PresentationState<Case> {
    var presentation = PresentationState<Case>(wrappedValue: nil)
    if let value, let child = value[case: casePath] {
      presentation.value = child
      presentation.id = id
    }
    return presentation
  }

  /// The presented child in one case of an enum destination, to read or change in place: nil
  /// while nothing is presented or the destination is in another case.
  ///
  /// ```swift
  /// state.$destination[case: \.counter]?.count += 1   // the counter, if it is presented
  /// state.$destination[case: \.counter] = nil         // dismisses the counter
  /// ```
  ///
  /// Changing the child in place keeps its presentation (its effects go on); setting a child
  /// while nothing is presented presents it afresh. Setting nil dismisses the child when it is
  /// in this case. Changing the case while the destination is in another one is reported, and
  /// leaves the destination as it was.
  // NB: disfavored, so that `\.$destination[case: \.x]` where a presentation is expected (a
  // `scope`) is the presentation above; `?.` and assignment reach this one.
  @_disfavoredOverload
  public subscript<Case>(case casePath: CaseKeyPath<State, Case>) -> Case? {
    get { value.flatMap { $0[case: casePath] } }
    _modify {
      let current = value
      var child = current.flatMap { $0[case: casePath] }
      let wasInCase = child != nil
      yield &child
      switch (current, wasInCase, child) {
      case (nil, _, nil):
        break
      case (nil, _, let child?):
        wrappedValue = casePath(child)
      case (_?, true, let child?):
        value = casePath(child)
      case (_?, true, nil):
        wrappedValue = nil
      case (let current?, false, _):
        reportIssue(Diagnostics.presentationCaseMismatch(current: current, asked: Case.self))
      }
    }
  }
}

extension Case {
  /// The presentation actions of one case of an enum destination: `\.destination.addContact`
  /// is `.destination(.presented(.addContact(…)))` for a child action and
  /// `.destination(.dismiss)` for the dismissal (which matches whatever case is presented). It
  /// is what `scope` and the navigation bindings take to show one destination.
  ///
  /// Where no presentation is expected, `\.destination.addContact` is the child's case alone
  /// (see ``PresentationAction/AllCasePaths``): `receive(\.destination.alert.confirm)` matches
  /// the button's action, not a dismissal.
  // NB: disfavored, so that a path that goes on past the case (`\.destination.alert.confirm`)
  // reads the child's case, as TCA's does; a `scope` that expects a presentation still gets
  // this one.
  @_disfavoredOverload
  public subscript<Child: CasePathable, Member>(
    dynamicMember keyPath: KeyPath<Child.AllCasePaths, AnyCasePath<Child, Member>>
  ) -> Case<PresentationAction<Member>> where Value == PresentationAction<Child> {
    appending(self, Value.allCasePaths[presentationOf: Child.allCasePaths[keyPath: keyPath]])
  }
}
