import CasePathsCore

/// The child store of one presentation, identified by it: the item SwiftUI's
/// `sheet(item:)`, `fullScreenCover(item:)` and `navigationDestination(item:)` need.
public struct PresentedStore<State, Action>: Identifiable, Hashable {
  /// The presentation this store is for.
  public let id: PresentationID
  /// The presented child's store.
  public let store: Store<State, Action>

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// One screen of a navigation stack as a value of a path: the element's id and its state when
/// the path was read (or the state to push). Equal when the ids are.
///
/// It is the element of the path that SwiftUI's `NavigationStack(path:)` binds to, and the
/// value of a `NavigationLink(value:)` that pushes a screen:
///
/// ```swift
/// NavigationLink(value: StackPathComponent(Path.State.detail(Detail.State()))) { Text("Open") }
/// ```
public struct StackPathComponent<State>: Identifiable, Hashable {
  /// The element's id.
  public let id: StackElementID
  /// The element's state.
  public var state: State

  /// A component of an element that is on the stack.
  public init(id: StackElementID, state: State) {
    self.id = id
    self.state = state
  }

  /// A component to push: `state` with a fresh id.
  public init(_ state: State) {
    self.init(id: StackElementID(), state: state)
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension StackPathComponent: Sendable where State: Sendable {}

extension Store {
  /// A binding to the presented child's store, for `sheet(item:)` and its kin: it reads the
  /// store of the current presentation (nil while none), and setting it to nil sends `.dismiss`
  /// when the presentation it was read for is still the current one.
  ///
  /// ```swift
  /// .sheet(item: Binding(store.binding(presenting: \.$detail, action: \.detail))) { detail in
  ///   DetailView(store: detail.store)
  /// }
  /// ```
  public func binding<ChildState, ChildAction>(
    presenting toPresentation: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> StoreBinding<PresentedStore<ChildState, ChildAction>?> {
    let shown = self.core.state[keyPath: toPresentation].id
    return StoreBinding(
      get: {
        guard let store = self.scope(state: toPresentation, action: toPresentationAction),
          let id = self.core.state[keyPath: toPresentation].id
        else { return nil }
        return PresentedStore(id: id, store: store)
      },
      set: { newValue in
        guard newValue == nil else { return }
        self.dismiss(toPresentation, action: toPresentationAction, ifStillShowing: shown)
      })
  }

  /// A binding to whether a child is presented, for `alert(_:isPresented:…)` and
  /// `confirmationDialog(_:isPresented:…)`: setting it to false sends `.dismiss` when the
  /// presentation it was read for is still the current one (so a view that writes false after
  /// a button already dismissed it, and the parent presented another, leaves the new one be).
  public func binding<ChildState, ChildAction>(
    isPresented toPresentation: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> StoreBinding<Bool> {
    let shown = self.core.state[keyPath: toPresentation].id
    return StoreBinding(
      get: { self[dynamicMember: toPresentation.appending(path: \.isPresented)] },
      set: { isPresented in
        guard !isPresented else { return }
        self.dismiss(toPresentation, action: toPresentationAction, ifStillShowing: shown)
      })
  }

  private func dismiss<ChildState, ChildAction>(
    _ toPresentation: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
    ifStillShowing shown: PresentationID?
  ) {
    guard let shown, core.state[keyPath: toPresentation].id == shown else { return }
    send(AnyCasePath(toPresentationAction).embed(.dismiss))
  }

  /// A binding to a navigation stack's path, the shape SwiftUI's `NavigationStack(path:)`
  /// needs: it reads one component per element, and setting it sends what turns the stack
  /// into the new path: `.popFrom(id:)` of the first element that is gone, then `.push(id:state:)`
  /// for each new component. A component with an id the stack already used (a link tapped again
  /// after its screen was popped; a screen above one removed from the middle) is pushed with a
  /// fresh id.
  ///
  /// ```swift
  /// NavigationStack(path: Binding(store.binding(path: \.path, action: \.path))) {
  ///   RootView(store: store)
  /// }
  /// ```
  ///
  /// Reading it observes the stack's ids, not the elements' contents.
  public func binding<ElementState, ElementAction>(
    path toStack: KeyPath<State, StackState<ElementState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>
  ) -> StoreBinding<[StackPathComponent<ElementState>]> {
    let embed = AnyCasePath(toStackAction)
    return StoreBinding(
      get: {
        let ids = self[dynamicMember: toStack.appending(path: \.ids)]
        let stack = self.core.state[keyPath: toStack]
        return ids.map { StackPathComponent(id: $0, state: stack[id: $0]!) }
      },
      set: { path in
        let stack = self.core.state[keyPath: toStack]
        let actions: [StackAction<ElementState, ElementAction>] = StackPathChange.actions(
          from: Array(stack.ids), lastID: stack.lastID, to: path)
        for action in actions {
          self.send(embed.embed(action))
        }
      })
  }
}

/// What turns a stack into a path a view wrote: the decision behind the path binding.
enum StackPathChange {
  /// The actions that turn the stack of `ids` into `path`: a pop from the first id that is not
  /// kept, then a push of each component after the kept ones.
  ///
  /// A component whose id the stack has already used (`lastID` is the greatest) is pushed with a
  /// fresh id: a link drawn before, tapped again after its screen was popped, or a screen kept
  /// above one the view removed from the middle (popped with it, then pushed again as a new
  /// screen). Ids are never reused, so a late action of the popped screen can't reach it.
  static func actions<State, Action>(
    from ids: [StackElementID], lastID: StackElementID, to path: [StackPathComponent<State>]
  ) -> [StackAction<State, Action>] {
    var kept = 0
    while kept < ids.count, kept < path.count, ids[kept] == path[kept].id { kept += 1 }
    var actions: [StackAction<State, Action>] = []
    if kept < ids.count { actions.append(.popFrom(id: ids[kept])) }
    var lastID = lastID
    for component in path[kept...] {
      let id = component.id > lastID ? component.id : StackElementID()
      lastID = id
      actions.append(.push(id: id, state: component.state))
    }
    return actions
  }
}

extension Store {
  /// Calls `present` with the child's store each time a child is presented at `state`, and
  /// `dismiss` each time that presentation ends (before `present` when one replaces another):
  /// what a UIKit controller needs to present and dismiss another.
  ///
  /// ```swift
  /// token = store.observePresentation(\.$detail, action: \.detail) { [weak self] detail in
  ///   self?.present(DetailViewController(store: detail), animated: true)
  /// } dismiss: { [weak self] in
  ///   self?.presentedViewController?.dismiss(animated: true)
  /// }
  /// ```
  ///
  /// Both run now if a child is presented, then after the batch that changed the presentation.
  /// The observation ends when the token is cancelled or released, or with the store.
  public func observePresentation<ChildState, ChildAction>(
    _ toPresentation: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
    present: @escaping @MainActor (Store<ChildState, ChildAction>) -> Void,
    dismiss: @escaping @MainActor () -> Void
  ) -> ObserveToken {
    var shown: PresentationID?
    return observe { store in
      let id = store[dynamicMember: toPresentation.appending(path: \.id)]
      guard id != shown else { return }
      if shown != nil { dismiss() }
      shown = id
      if id != nil, let child = store.scope(state: toPresentation, action: toPresentationAction) {
        present(child)
      }
    }
  }
}
