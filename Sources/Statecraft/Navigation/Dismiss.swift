import Dependencies

/// Ends the presentation of the feature that calls it, or pops it from its stack, without the
/// feature knowing who presented it: TCA's `@Dependency(\.dismiss)`.
///
/// Keep one as a property of the child reducer and call it from an effect:
///
/// ```swift
/// struct Detail: Reducer {
///   let dismiss = DismissEffect()
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .saveTapped:
///       return .run { [draft = state.draft] _ in
///         try await api.save(draft)
///         await dismiss()
///       }
///     }
///   }
/// }
/// ```
///
/// The presenter (`ifLet` over a ``PresentationState``, or `forEach` over a ``StackState``)
/// receives `.dismiss` or `.popFrom(id:)` for this child, exactly as if the user had dismissed
/// it, so a test store receives that action. Called after the child was dismissed (its effects
/// are then cancelled), it does nothing.
///
/// Called by a feature that nobody presents (a root), it calls the dismissal that the
/// `\.dismiss` dependency in force holds:
/// - under a `TestStore`, the test store records the dismissal (`store.isDismissed` becomes
///   true) and ends the store's effects, as TCA's does;
/// - a dismissal of your own, `DismissEffect { … }`, set with `withDependencies` (a store that
///   hosts a root feature in a modal of its own, or a test of a child in isolation);
/// - with neither, as in a live root store, nothing is dismissed and an issue is reported, as
///   TCA does: a feature that can run at the root should not ask to be dismissed there.
public struct DismissEffect: Sendable {
  /// What this value does when no presenter is there, if it was made with one.
  package let dismiss: (@MainActor @Sendable () -> Void)?

  /// A dismissal for the feature whose effect calls it.
  public init() {
    self.dismiss = nil
  }

  /// A dismissal that calls `dismiss` when the feature calling it is not presented: a root
  /// feature's, set as a dependency.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Child.State()) {
  ///   Child()
  /// } withDependencies: {
  ///   $0.dismiss = DismissEffect { dismissed.withValue { $0 = true } }
  /// }
  /// ```
  ///
  /// A presented feature is still dismissed by its presenter: `dismiss` runs only where no
  /// presenter is.
  public init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.dismiss = dismiss
  }

  /// Dismisses the presented feature whose effect is running this call.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    if let dismissal = Dismissal.current {
      // NB: a child that has left its presentation has its effects cancelled; a dismissal it
      // still asks for must not end the presentation that replaced it.
      guard !Task.isCancelled else { return }
      await dismissal.perform()
      return
    }
    // NB: a `DismissEffect()` held as a value defers to the one in force, so that a root
    // feature holding one is dismissed as one reading `@Dependency(\.dismiss)` is.
    guard let dismiss = dismiss ?? DependencyValues._current.dismiss.dismiss else {
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        .report(Diagnostics.dismissWhileNotPresented())
      return
    }
    await dismiss()
  }
}

extension Effect {
  /// An effect that dismisses the presented feature returning it (or pops it from its stack):
  /// `case .closeTapped: return .dismiss()`.
  ///
  /// The presenter receives `.dismiss` (or `.popFrom(id:)`) a moment later, as an action a test
  /// store receives. Returned by a feature that is not presented, it reports an issue.
  public static func dismiss(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    .run { _ in
      await DismissEffect()(fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }
}

/// How the effects of a presented child end its presentation: set as a task local around each
/// of its `.run` operations by the presenter.
struct Dismissal: Sendable {
  let perform: @Sendable () async -> Void

  @TaskLocal static var current: Dismissal?
}

extension Effect {
  /// This effect, with each of its `.run` operations able to dismiss the child that returned
  /// it: ``DismissEffect`` calls `dismiss` with the operation's `Send`.
  func withDismissal(
    _ dismiss: @escaping @Sendable (Send<Action>) async -> Void
  ) -> Self {
    switch operation {
    case .none, .send, .subscribe, .cancel, .cancelNamespace:
      return self
    case .run(let priority, let location, let run):
      return Self(
        operation: .run(priority, location) { send in
          await Dismissal.$current.withValue(Dismissal { await dismiss(send) }) {
            await run(send)
          }
        })
    case .merge(let effects):
      return Self(operation: .merge(effects.map { $0.withDismissal(dismiss) }))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map { $0.withDismissal(dismiss) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        operation: .cancellable(
          id: id, cancelInFlight: cancelInFlight, effect.withDismissal(dismiss)))
    case .namespaced(let component, let effect):
      return Self(operation: .namespaced(component, effect.withDismissal(dismiss)))
    case .dependencies(let dependencies, let effect):
      return Self(operation: .dependencies(dependencies, effect.withDismissal(dismiss)))
    case .throttle(let id, let interval, let sleep, let latest, let effect):
      return Self(
        operation: .throttle(
          id: id, interval: interval, sleep: sleep, latest: latest,
          effect.withDismissal(dismiss)))
    }
  }
}
