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
/// it, so a test store receives that action. Called from an effect of a feature that is not
/// presented, it does nothing and reports an issue. Called after the child was dismissed (its
/// effects are then cancelled), it does nothing.
public struct DismissEffect: Sendable {
  /// A dismissal for the feature whose effect calls it.
  public init() {}

  /// Dismisses the presented feature whose effect is running this call.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let dismissal = Dismissal.current else {
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        .report(Diagnostics.dismissWhileNotPresented())
      return
    }
    // NB: a child that has left its presentation has its effects cancelled; a dismissal it
    // still asks for must not end the presentation that replaced it.
    guard !Task.isCancelled else { return }
    await dismissal.perform()
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
