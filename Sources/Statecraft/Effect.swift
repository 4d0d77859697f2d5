import ConcurrencyExtras
import Dependencies

/// Work a reducer asks the store to do after it has changed the state.
///
/// An effect is a value: the reducer returns it and the ``Store`` that ran the reducer carries it
/// out. ``none`` costs nothing (no allocation, no task); ``send(_:)`` feeds an action back into the
/// store within the same batch; `run(priority:operation:catch:)`
/// starts asynchronous work owned by the store.
///
/// ```swift
/// case .refreshButtonTapped:
///   state.isLoading = true
///   return .run { send in
///     let fact = try await factClient.fetch(count)
///     await send(.factResponse(fact))
///   }
///   .cancellable(id: CancelID.fetch, cancelInFlight: true)
/// ```
///
/// Effects compose with `merge`, `concatenate`
/// and ``map(_:)``, and are scoped for cancellation with ``cancellable(id:cancelInFlight:)`` and
/// ``cancel(id:)``. Cancellation ids belong to the store that runs the effect (and to the child
/// feature inside it): there is no process-wide table.
public struct Effect<Action> {
  @usableFromInline
  let operation: Operation

  /// Whether `operation` is `.none`, stored: composition operators test it at every level of
  /// every action, and testing the enum itself copies it (see `Operation`).
  @usableFromInline
  let _isNone: Bool

  @usableFromInline
  init(operation: Operation) {
    self.operation = operation
    if case .none = operation {
      _isNone = true
    } else {
      _isNone = false
    }
  }

  /// The effect that does nothing, built without testing an operation.
  @usableFromInline
  init(none: Void) {
    self.operation = .none
    self._isNone = true
  }

  // NB: the cases whose payload is larger than two words are indirect, so that an effect is the
  // size of an action (or of a closure), plus a tag: `.none` and `.send` allocate nothing, and
  // creating, testing and destroying a `.none` at every `Scope` level costs a few bytes instead of
  // an outlined copy of the largest payload (`.run` held about 80 bytes inline). The price is one
  // box per `.run`, `.cancel` and `.cancelNamespace` effect.
  @usableFromInline
  enum Operation {
    case none
    case send(Action)
    indirect case run(TaskPriority?, SourceLocation, @Sendable (Send<Action>) async -> Void)
    case merge([Effect<Action>])
    case concatenate([Effect<Action>])
    indirect case cancellable(id: AnyHashableSendable, cancelInFlight: Bool, Effect<Action>)
    case subscribe(@MainActor @Sendable (EffectSubscriber<Action>) -> @Sendable () -> Void)
    indirect case cancel(id: AnyHashableSendable)
    indirect case cancelNamespace(AnyHashableSendable)
    indirect case namespaced(AnyHashableSendable, Effect<Action>)
    /// An effect that runs with these dependency values rather than its store's: returned by a
    /// `.dependency(...)` reducer (see Dependencies/DependencyReducer.swift).
    indirect case dependencies(DependencyValues, Effect<Action>)
    indirect case throttle(
      id: AnyHashableSendable,
      interval: Duration,
      sleep: @Sendable (Duration) async throws -> Void,
      latest: Bool,
      Effect<Action>
    )
  }

  /// Whether this is ``none``: an effect that does nothing. The store skips all effect
  /// bookkeeping for it; a unit test of a reducer can assert it:
  ///
  /// ```swift
  /// var state = Counter.State()
  /// let effect = Counter().reduce(into: &state, action: .increment)
  /// #expect(effect.isNone)
  /// ```
  @inlinable
  public var isNone: Bool { _isNone }
}

extension Effect: Sendable where Action: Sendable {}
extension Effect.Operation: Sendable where Action: Sendable {}

// MARK: - Creating effects

extension Effect {
  /// An effect that does nothing: no allocation, no task.
  @inlinable
  public static var none: Self { Self(none: ()) }

  /// An effect that sends `action` back into the store immediately, in the same batch.
  ///
  /// The action is queued behind the action that returned this effect and reduced before the
  /// `send` that started the batch returns. Prefer calling shared logic directly over sending
  /// actions to yourself; use this to notify a parent feature.
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(action))
  }

  /// An effect that runs asynchronous work and may send actions back into the store.
  ///
  /// The work runs in a `Task` owned by the store. The store holds no strong reference to
  /// itself from the task: releasing the store cancels the task. Actions sent through `send`
  /// arrive on the main actor in the order they were sent. Once the operation returns, `send`
  /// must not be used again (doing so is reported as an issue).
  ///
  /// Errors thrown by `operation` go to `handler`. Without a handler, an error is reported with
  /// `reportIssue` at the place this effect was created: a failing test in tests, a runtime
  /// warning in an app. An error thrown after the effect was cancelled (a `CancellationError`,
  /// or `URLError(.cancelled)` from a cancelled request) goes to neither: cancellation is how
  /// effects end. A `CancellationError` thrown while the effect was not cancelled is reported.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await tick in clock.timer(interval: .seconds(1)) {
  ///     await send(.tick)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The work to do. `send` feeds actions back into the store.
  ///   - handler: Called with any error `operation` throws while the effect is not cancelled.
  ///   - fileID: Where an unhandled error is reported (the caller's file, by default).
  ///   - filePath: Where an unhandled error is reported (the caller's file, by default).
  ///   - line: Where an unhandled error is reported (the caller's line, by default).
  ///   - column: Where an unhandled error is reported (the caller's column, by default).
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let location = SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    return Self(
      operation: .run(priority, location) { send in
        do {
          try await operation(send)
        } catch  where Task.isCancelled {
          // NB: cancellation is how effects end, not a failure, whatever the cancelled work throws
          // (`URLSession` throws `URLError(.cancelled)`): nothing thrown once this effect's own
          // task was cancelled is handled or reported. A `CancellationError` thrown while it was
          // not cancelled is an error like any other.
        } catch {
          if let handler {
            await handler(error, send)
          } else {
            location.report(Diagnostics.unhandledEffectError(error))
          }
        }
      }
    )
  }

  /// An effect that runs every effect at once and finishes when all of them have.
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// An effect that runs every effect at once and finishes when all of them have.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    combining(effects, Operation.merge)
  }

  /// An effect that runs the effects one after another: each starts when the work of the one
  /// before it (its tasks, not the effects of actions it sent) has finished.
  public static func concatenate(_ effects: Self...) -> Self {
    concatenate(effects)
  }

  /// An effect that runs the effects one after another: each starts when the work of the one
  /// before it (its tasks, not the effects of actions it sent) has finished.
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    combining(effects, Operation.concatenate)
  }

  /// The effects other than `.none`, combined by `operation` when there are several.
  private static func combining(
    _ effects: some Sequence<Self>, _ operation: ([Self]) -> Operation
  ) -> Self {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(operation: operation(effects))
    }
  }

  /// This effect and `other`, run at once.
  public func merge(with other: Self) -> Self {
    .merge(self, other)
  }

  /// `first` and `second` merged, without building a list when either is `.none`: how a
  /// child's effect and its parent's come together (`ifLet`, `forEach`, presentation, stack).
  @inlinable
  static func merging(_ first: Self, _ second: Self) -> Self {
    if first.isNone { return second }
    if second.isNone { return first }
    return .merge(first, second)
  }

  /// This effect, then `other` once this effect's work has finished.
  public func concatenate(with other: Self) -> Self {
    .concatenate(self, other)
  }
}

// MARK: - Transforming

extension Effect {
  /// Transforms every action this effect sends.
  ///
  /// Composition operators (``Scope``, `ifLet`,
  /// `forEach`) use this to lift a child's
  /// effects into the parent's action type.
  public func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return .init(operation: .send(transform(action)))
    case .run(let priority, let location, let run):
      return .init(
        operation: .run(priority, location) { send in
          await run(Send { action in send.deliver(transform(action)) })
        })
    case .subscribe(let subscribe):
      return .init(
        operation: .subscribe { subscriber in
          subscribe(
            EffectSubscriber(
              send: { action in subscriber.send(transform(action)) },
              finish: { subscriber.finish() }))
        })
    case .merge(let effects):
      return .init(operation: .merge(effects.map { $0.map(transform) }))
    case .concatenate(let effects):
      return .init(operation: .concatenate(effects.map { $0.map(transform) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return .init(
        operation: .cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform)))
    case .cancel(let id):
      return .init(operation: .cancel(id: id))
    case .cancelNamespace(let component):
      return .init(operation: .cancelNamespace(component))
    case .namespaced(let component, let effect):
      return .init(operation: .namespaced(component, effect.map(transform)))
    case .dependencies(let dependencies, let effect):
      return .init(operation: .dependencies(dependencies, effect.map(transform)))
    case .throttle(let id, let interval, let sleep, let latest, let effect):
      return .init(
        operation: .throttle(
          id: id, interval: interval, sleep: sleep, latest: latest, effect.map(transform)))
    }
  }

  /// Whether the store finishes this effect while starting it: it starts no task.
  @usableFromInline
  var isSynchronous: Bool {
    switch operation {
    case .none, .send, .cancel, .cancelNamespace:
      return true
    case .run, .subscribe, .throttle:
      return false
    case .merge(let effects), .concatenate(let effects):
      return effects.allSatisfy(\.isSynchronous)
    case .cancellable(_, _, let effect), .namespaced(_, let effect),
      .dependencies(_, let effect):
      return effect.isSynchronous
    }
  }

  /// Puts this effect's cancellation ids in the namespace of one child feature instance, so
  /// that two instances using the same id don't cancel each other.
  @usableFromInline
  func namespaced(_ component: AnyHashableSendable) -> Self {
    isNone ? self : Self(operation: .namespaced(component, self))
  }

  /// An effect that cancels every effect started in the namespace of one child instance.
  @usableFromInline
  static func cancelNamespace(_ component: AnyHashableSendable) -> Self {
    Self(operation: .cancelNamespace(component))
  }
}
