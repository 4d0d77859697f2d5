#if canImport(SwiftUI)
  import CasePathsCore
  import SwiftUI

  // SwiftUI's presentation modifiers over a store's presentation and stack state. Nothing is
  // decided here: the bindings and child stores are `Store`'s (NavigationBindings.swift,
  // Store+Navigation.swift), tested on Linux.

  extension View {
    /// Presents a sheet with the presented child's store while a child is presented at `state`;
    /// swiping it away sends `.dismiss`.
    ///
    /// ```swift
    /// .sheet(store: store, state: \.$addContact, action: \.addContact) { store in
    ///   AddContactView(store: store)
    /// }
    /// ```
    public func sheet<State, Action, ChildState, ChildAction, Content: View>(
      store: Store<State, Action>,
      state toPresentation: KeyPath<State, PresentationState<ChildState>>,
      action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
      onDismiss: (() -> Void)? = nil,
      @ViewBuilder content: @escaping (Store<ChildState, ChildAction>) -> Content
    ) -> some View {
      sheet(
        item: Binding(store.binding(presenting: toPresentation, action: toPresentationAction)),
        onDismiss: onDismiss
      ) { presented in
        content(presented.store)
      }
    }

    #if !os(macOS)
      /// Presents a full-screen cover with the presented child's store while a child is
      /// presented at `state`.
      public func fullScreenCover<State, Action, ChildState, ChildAction, Content: View>(
        store: Store<State, Action>,
        state toPresentation: KeyPath<State, PresentationState<ChildState>>,
        action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (Store<ChildState, ChildAction>) -> Content
      ) -> some View {
        fullScreenCover(
          item: Binding(store.binding(presenting: toPresentation, action: toPresentationAction)),
          onDismiss: onDismiss
        ) { presented in
          content(presented.store)
        }
      }
    #endif

    /// Pushes a destination with the presented child's store while a child is presented at
    /// `state` (inside a `NavigationStack`); going back sends `.dismiss`.
    public func navigationDestination<State, Action, ChildState, ChildAction, Content: View>(
      store: Store<State, Action>,
      state toPresentation: KeyPath<State, PresentationState<ChildState>>,
      action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
      @ViewBuilder destination: @escaping (Store<ChildState, ChildAction>) -> Content
    ) -> some View {
      navigationDestination(
        item: Binding(store.binding(presenting: toPresentation, action: toPresentationAction))
      ) { presented in
        destination(presented.store)
      }
    }

    /// Shows the ``AlertState`` presented at `state`; a button sends its action (which
    /// dismisses the alert), or `.dismiss` when it has none.
    ///
    /// ```swift
    /// .alert(store: store, state: \.$alert, action: \.alert)
    /// ```
    public func alert<State, Action, ButtonAction>(
      store: Store<State, Action>,
      state toPresentation: KeyPath<State, PresentationState<AlertState<ButtonAction>>>,
      action toPresentationAction: CaseKeyPath<Action, PresentationAction<ButtonAction>>
    ) -> some View {
      let alert = store[toPresentation].wrappedValue
      let send = AnyCasePath(toPresentationAction)
      return self.alert(
        Text(alert?.title ?? TextState(verbatim: "")),
        isPresented: Binding(
          store.binding(isPresented: toPresentation, action: toPresentationAction)),
        presenting: alert
      ) { alert in
        ForEach(Array(alert.buttons.enumerated()), id: \.offset) { _, button in
          Button(role: button.role.map(ButtonRole.init)) {
            withAnimation(button.animation.map(Animation.init)) {
              _ = store.send(send.embed(.press(button)))
            }
          } label: {
            Text(button.label)
          }
        }
      } message: { alert in
        if let message = alert.message { Text(message) }
      }
    }

    /// Shows the ``ConfirmationDialogState`` presented at `state`; a button sends its action
    /// (which dismisses the dialog), or `.dismiss` when it has none.
    public func confirmationDialog<State, Action, ButtonAction>(
      store: Store<State, Action>,
      state toPresentation: KeyPath<
        State, PresentationState<ConfirmationDialogState<ButtonAction>>
      >,
      action toPresentationAction: CaseKeyPath<Action, PresentationAction<ButtonAction>>
    ) -> some View {
      let dialog = store[toPresentation].wrappedValue
      let send = AnyCasePath(toPresentationAction)
      return confirmationDialog(
        Text(dialog?.title ?? TextState(verbatim: "")),
        isPresented: Binding(
          store.binding(isPresented: toPresentation, action: toPresentationAction)),
        titleVisibility: Visibility(dialog?.titleVisibility ?? .automatic),
        presenting: dialog
      ) { dialog in
        ForEach(Array(dialog.buttons.enumerated()), id: \.offset) { _, button in
          Button(role: button.role.map(ButtonRole.init)) {
            withAnimation(button.animation.map(Animation.init)) {
              _ = store.send(send.embed(.press(button)))
            }
          } label: {
            Text(button.label)
          }
        }
      } message: { dialog in
        if let message = dialog.message { Text(message) }
      }
    }
  }

  /// A `NavigationStack` whose path is a store's ``StackState``: pushing and popping in the
  /// view sends `.push(id:state:)` and `.popFrom(id:)`, and each screen gets its element's store.
  ///
  /// ```swift
  /// NavigationStackStore(store, path: \.path, action: \.path) {
  ///   ContactsView(store: store)
  /// } destination: { store in
  ///   ContactDetailView(store: store)
  /// }
  /// ```
  ///
  /// Push from a view with `NavigationLink(value: StackPathComponent(Detail.State()))`.
  public struct NavigationStackStore<
    State, Action, ElementState, ElementAction, Root: View, Destination: View
  >: View {
    let store: Store<State, Action>
    let toStack: KeyPath<State, StackState<ElementState>>
    let toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>
    let root: Root
    let destination: (Store<ElementState, ElementAction>) -> Destination

    /// A stack over `path`, with `root` at its bottom and `destination` for each element.
    public init(
      _ store: Store<State, Action>,
      path toStack: KeyPath<State, StackState<ElementState>>,
      action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>,
      @ViewBuilder root: () -> Root,
      @ViewBuilder destination: @escaping (Store<ElementState, ElementAction>) -> Destination
    ) {
      self.store = store
      self.toStack = toStack
      self.toStackAction = toStackAction
      self.root = root()
      self.destination = destination
    }

    public var body: some View {
      NavigationStack(path: Binding(store.binding(path: toStack, action: toStackAction))) {
        root.navigationDestination(for: StackPathComponent<ElementState>.self) { component in
          if let element = store.scope(state: toStack, id: component.id, action: toStackAction) {
            destination(element)
          }
        }
      }
    }
  }

  extension ButtonRole {
    /// The SwiftUI role of a ``ButtonState``'s role.
    init<Action>(_ role: ButtonState<Action>.Role) {
      switch role {
      case .cancel: self = .cancel
      case .destructive: self = .destructive
      }
    }
  }

  extension Visibility {
    /// The SwiftUI visibility of a dialog's title.
    init<Action>(_ visibility: ConfirmationDialogState<Action>.TitleVisibility) {
      switch visibility {
      case .automatic: self = .automatic
      case .visible: self = .visible
      case .hidden: self = .hidden
      }
    }
  }
  extension Text {
    /// The text of a ``TextState``: localized when it was made from a key, as it is otherwise.
    public init(_ state: TextState) {
      self.init(verbatim: String(state: state))
    }
  }

  extension Animation {
    /// The SwiftUI animation a ``ButtonAnimation`` names; the default one for a name it
    /// doesn't know.
    init(_ animation: ButtonAnimation) {
      switch animation {
      case .linear: self = .linear
      case .easeIn: self = .easeIn
      case .easeOut: self = .easeOut
      case .easeInOut: self = .easeInOut
      case .spring: self = .spring
      case .smooth: self = .smooth
      case .snappy: self = .snappy
      case .bouncy: self = .bouncy
      default: self = .default
      }
    }
  }
#endif
