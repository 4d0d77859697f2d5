import ConcurrencyExtras

extension Task where Success == Never, Failure == Never {
  /// Cancels the in-flight effects with `id`, from inside an effect: the same as the reducer that
  /// started this effect returning `.cancel(id:)`.
  ///
  /// The id is looked up in the store that runs the calling effect, in the namespace of the
  /// feature instance that started it (an `ifLet` child, a `forEach` row), exactly as
  /// ``Effect/cancel(id:)`` returned by that feature's reducer would.
  ///
  /// ```swift
  /// case .stopButtonTapped:
  ///   return .run { send in
  ///     await Task.cancel(id: CancelID.timer)
  ///     await send(.stopped)
  ///   }
  /// ```
  ///
  /// Calling it outside an effect that a store runs (from a test, a view, a detached task) is
  /// reported as an issue and cancels nothing.
  public static func cancel(
    id: some Hashable & Sendable,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let scope = EffectScope.current else {
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        .report(Diagnostics.cancelOutsideEffect(id: id))
      return
    }
    await scope.cancel(id: AnyHashableSendable(id))
  }
}

/// The store and the child namespace of the effect a task runs for: set by the store for the
/// task of each effect (and inherited by the tasks it starts), read by `Task.cancel(id:)`.
struct EffectScope: Sendable {
  @TaskLocal static var current: EffectScope?

  let registry: WeakEffectRegistry
  let namespace: Namespace

  @MainActor
  func cancel(id: AnyHashableSendable) {
    registry.value?.cancel(CancellationKey(namespace: namespace, id: id))
  }
}

/// An effect registry held weakly, so that an effect's task doesn't keep its store's effects
/// alive.
@MainActor
final class WeakEffectRegistry: Sendable {
  weak var value: EffectRegistry?
  init(_ value: EffectRegistry) { self.value = value }
}
