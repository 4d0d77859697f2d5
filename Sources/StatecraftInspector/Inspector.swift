import CasePathsCore
import Foundation
import Statecraft

/// A window on a running store, in a browser: a live action log, the state at any step with the
/// diff it made, time travel, sending actions, and sessions exported and imported as
/// recordings.
///
/// Start one for a store, and open its ``url``:
///
/// ```swift
/// let store = Store(initialState: Todos.State()) { Todos() }
/// let inspector = try await Inspector(store: store)
/// print("Inspect at \(inspector.url)")
/// // ... the app runs ...
/// await inspector.stop()
/// ```
///
/// It works with a store of any idiom: a reducer's, a reactor's (the log shows its mutations
/// too) or a feedback system's. To inspect one feature of a larger tree, name its state and its
/// action case: `Inspector(store: app, state: \.list, action: listCase)`.
///
/// The server listens on 127.0.0.1 only, on a port of its own, and answers only requests that
/// carry the random token in ``url``: the page, its socket and the export and import routes.
/// The socket also checks that the page's `Origin` is the inspector's own. Nothing runs unless
/// an inspector is created; while no page is connected, the store has no observer and pays
/// nothing for it. The timeline starts when the first page connects, and is dropped when the
/// last one leaves (a store left at a past step goes back to its live state then).
///
/// States and actions are shown as JSON: through `Encodable` when they are, and otherwise as a
/// tree read with `Mirror`. Sending an action from the page needs a `Decodable` action;
/// exporting a session needs `Encodable` state and actions; importing one needs
/// ``replaysImports(against:)``.
@MainActor
public final class Inspector<State, Action> {
  /// The page's address, with the token that every request must carry.
  public let url: URL
  /// The random token in ``url``.
  public let token: String

  let session: InspectorSession<State, Action>
  let server: InspectorServer
  private var isStopped = false

  /// Starts an inspector for `store`: the whole of its state and its actions.
  ///
  /// - Parameters:
  ///   - store: The store to inspect, of any idiom: the root of its tree. For a feature inside
  ///     a larger tree, give the root and name the feature
  ///     (``init(store:state:action:configuration:)``).
  ///   - configuration: The port, the limits on what a page sends, and a test generator.
  /// - Throws: An ``InspectorError``: when the server can't listen, or
  ///   ``InspectorError/scopedStore(root:)`` when `store` was made by `scope`.
  public convenience init(
    store: Store<State, Action>, configuration: InspectorConfiguration = InspectorConfiguration()
  ) async throws {
    try Self.checkIsRoot(store)
    let feature = InspectedFeature<State, Action>(
      name: Self.name(of: State.self),
      currentRootState: { [weak store] in store?.inspectedRootState },
      featureState: { $0 as? State },
      project: { step in
        let action = step.action as? Action
        return (action.map { $0 as Any } ?? step.action, action, step.origin)
      },
      reduce: { [weak store] state, action in
        store?.reduceInspectedRootState(state, action: action)
      },
      replaceState: { [weak store] state in store?.replaceInspectedRootState(state) ?? false },
      send: { [weak store] action in store?.send(action) },
      runtime: store.runtime)
    try await self.init(feature: feature, configuration: configuration)
  }

  /// Starts an inspector for one feature of `store`'s tree: the state at `state`, and the
  /// actions in the case `action`.
  ///
  /// ```swift
  /// let inspector = try await Inspector(
  ///   store: appStore, state: \.list,
  ///   action: AnyCasePath(embed: App.Action.list) {
  ///     if case .list(let action) = $0 { action } else { nil }
  ///   })
  /// ```
  ///
  /// The log shows the root's actions that are in the case only; a jump puts the feature's
  /// state at the step into the root's current state.
  ///
  /// - Parameters:
  ///   - store: The root store of the tree.
  ///   - state: Where the feature's state is in the root's.
  ///   - action: The root's action case that holds the feature's actions.
  ///   - configuration: The port, the limits on what a page sends, and a test generator.
  /// - Throws: An ``InspectorError``: when the server can't listen, or
  ///   ``InspectorError/scopedStore(root:)`` when `store` was made by `scope`.
  public convenience init<RootState, RootAction>(
    store: Store<RootState, RootAction>,
    state: WritableKeyPath<RootState, State>,
    action: AnyCasePath<RootAction, Action>,
    configuration: InspectorConfiguration = InspectorConfiguration()
  ) async throws {
    try Self.checkIsRoot(store)
    let feature = InspectedFeature<State, Action>(
      name: Self.name(of: State.self),
      currentRootState: { [weak store] in store?.inspectedRootState },
      featureState: { ($0 as? RootState)?[keyPath: state] },
      project: { step in
        guard let rootAction = step.action as? RootAction,
          let featureAction = action.extract(from: rootAction)
        else { return nil }
        // NB: what a parent's effect sends the feature is sent, for the feature's test store.
        let origin = step.origin(forFeature: { ($0 as? RootAction).flatMap(action.extract) })
        return (featureAction, featureAction, origin)
      },
      reduce: { [weak store] state, action in
        store?.reduceInspectedRootState(state, action: action)
      },
      replaceState: { [weak store] featureState in
        guard let store, var root = store.inspectedRootState as? RootState else { return false }
        root[keyPath: state] = featureState
        return store.replaceInspectedRootState(root)
      },
      send: { [weak store] featureAction in store?.send(action.embed(featureAction)) },
      runtime: store.runtime)
    try await self.init(feature: feature, configuration: configuration)
  }

  /// Throws ``InspectorError/scopedStore(root:)`` when `store` is a scope of a larger tree: its
  /// root's state is of another type than its own. (A reactor's or a feedback system's store
  /// runs on a root of its own events, with its state.)
  private static func checkIsRoot<S, A>(_ store: Store<S, A>) throws {
    let root = store.inspectedRootState
    guard root is S else {
      let name = String(reflecting: type(of: root)).split(separator: ".").dropFirst()
      throw InspectorError.scopedStore(root: name.joined(separator: "."))
    }
  }

  init(
    feature: InspectedFeature<State, Action>, configuration: InspectorConfiguration
  ) async throws {
    let session = InspectorSession(
      feature: feature,
      limits: TimelineLimits(
        maximumSteps: configuration.maximumSteps,
        checkpointInterval: configuration.checkpointInterval,
        maximumCheckpoints: configuration.maximumCheckpoints))
    session.generateTest = configuration.generateTest
    let token = Self.makeToken()
    let page = InspectorPage.html
    let maximumMessageSize = max(configuration.maximumMessageSize, 1)
    let maximumImportSize = max(configuration.maximumImportSize, 1)
    let server: InspectorServer
    do {
      server = try await InspectorServer.start(
        port: configuration.port, limits: InspectorServerLimits(configuration)
      ) { _ in
        InspectorRoutes(
          token: token, page: page, maximumMessageSize: maximumMessageSize,
          maximumImportSize: maximumImportSize,
          export: { @MainActor [weak session] in
            await session?.exportResponse() ?? .text(.gone, "The inspector has stopped.")
          },
          importSession: { @MainActor [weak session] bytes in
            guard let session else { return .text(.gone, "The inspector has stopped.") }
            guard let importSession = session.importSession else {
              return .text(
                .notImplemented,
                """
                This inspector does not import sessions: the app must call \
                replaysImports(against:) with the feature's reducer.
                """)
            }
            return await importSession(Data(bytes))
          },
          pageConnected: { [weak session] connection in
            Task { @MainActor in
              guard let session else {
                connection.close()
                return
              }
              session.connect(connection)
            }
          })
      }
    } catch let error as InspectorError {
      throw error
    } catch {
      throw InspectorError.couldNotBind(port: configuration.port, reason: "\(error)")
    }
    self.session = session
    self.server = server
    self.token = token
    self.url = URL(string: "http://127.0.0.1:\(server.port)/?token=\(token)")!
  }

  deinit {
    server.closeSoon()
  }

  /// The port the server listens on, on 127.0.0.1.
  public var port: Int { server.port }

  /// The number of pages connected now.
  public var pageCount: Int { session.pageCount }

  /// The steps that "continue from here" set aside and no "undo continue" put back, so that an
  /// app can keep them at quit: the session as "undo continue" would make it (the steps up to
  /// the continue, then the ones set aside), as the JSON that `Recording(jsonData:)` reads. Nil
  /// when no step is set aside, or when the state or action is not `Encodable`.
  ///
  /// This is the last continue's. A continue made while steps were set aside keeps those too,
  /// as a session of their own: ``setAsideSessions()`` returns them all.
  public func setAsideSession() -> Data? {
    setAsideSessions().last
  }

  /// Every session set aside, the earliest first: for each "continue from here" made while
  /// steps were set aside, the session its undo would have made then, and last, the one
  /// ``setAsideSession()`` returns. Empty when no step is set aside, or when the state or
  /// action is not `Encodable`.
  ///
  /// The timeline, and what it set aside, stays while steps are set aside, even when the last
  /// page leaves, so that a page that reloads can still undo. ``stop()`` lets it go: call this
  /// before, and write what it returns beside the app's data, with a message.
  ///
  /// ```swift
  /// for (index, data) in inspector.setAsideSessions().enumerated() {
  ///   let name = "todos.set-aside-\(index + 1).json"
  ///   try data.write(to: dataFile.deletingLastPathComponent().appendingPathComponent(name))
  /// }
  /// await inspector.stop()
  /// ```
  public func setAsideSessions() -> [Data] {
    (try? session.setAsideData()) ?? []
  }

  /// Stops the server, closes the pages and detaches from the store. A store left at a past
  /// step goes back to its live state. Steps set aside by "continue from here" are let go:
  /// ``setAsideSessions()`` returns them before.
  public func stop() async {
    guard !isStopped else { return }
    isStopped = true
    session.closeAll()
    await server.close()
  }

  // MARK: - Helpers

  private static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in
      let value = generator.next() as UInt64
      let hex = String(value, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }

  private static func name(of type: Any.Type) -> String {
    let name = String(reflecting: type)
    let parts = name.split(separator: ".")
    if parts.count >= 2, parts.last == "State" { return String(parts[parts.count - 2]) }
    return String(parts.last ?? Substring(name))
  }
}

extension Inspector where State: Codable & Equatable, Action: Codable {
  /// Lets the page import a session (the JSON of a `Recording`, as the page exports it) and
  /// replay it against `reducer`, showing whether it reproduced, or the first step at which it
  /// diverged, with its diff.
  ///
  /// ```swift
  /// let inspector = try await Inspector(store: store)
  /// inspector.replaysImports(against: Todos())
  /// ```
  ///
  /// The replay runs the reducer on the recorded actions, as `Recording.replay(against:)` does;
  /// it runs no effects and leaves the store as it is. The recording is decoded off the main
  /// actor, and the reducer runs on it a slice of actions at a time (about 8 ms), so that the
  /// app's work runs in between.
  public func replaysImports<R: Reducer<State, Action>>(against reducer: R) {
    session.importSession = { [weak session] data in
      let recording: Recording<State, Action>
      do throws(RecordingError) {
        recording = try await Self.decode(data)
      } catch {
        return .text(.badRequest, error.description)
      }
      // NB: the reducer runs on the main actor, a slice of actions at a time, so that the
      // app's work runs between two slices.
      let slicing = session?.slicing ?? SliceBudget()
      var count = 0
      var deadline = ContinuousClock.now + slicing.maximumDuration
      let result = await recording.replay(
        against: reducer,
        sliceEnded: {
          count += 1
          return count >= slicing.maximumSteps || ContinuousClock.now >= deadline
        },
        pause: {
          await slicing.pause()
          count = 0
          deadline = ContinuousClock.now + slicing.maximumDuration
        })
      return .json(.ok, ImportReport(result).json)
    }
  }

  /// Reads a recording off the main actor.
  nonisolated private static func decode(
    _ data: Data
  ) async throws(RecordingError) -> sending Recording<State, Action> {
    try Recording<State, Action>(jsonData: data)
  }
}

/// What an import tells the page.
private struct ImportReport: Encodable {
  let reproduced: Bool
  let stepCount: Int
  let summary: String
  let step: Int?
  let lastMatchingStep: Int?
  let action: String?
  let diff: String?

  init<State, Action>(_ result: ReplayResult<State, Action>) {
    reproduced = result.isReproduced
    stepCount = result.stepCount
    summary = result.description
    step = result.divergence?.step
    lastMatchingStep = result.divergence?.lastMatchingStep
    action = result.divergence.map { InspectedValue.json($0.action) }
    diff = result.divergence?.diff
  }

  var json: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(self)) ?? Data("{}".utf8)
  }
}
