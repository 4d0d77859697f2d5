// Owns `@Dependency(\.sharedStorage)` and TCA's `\.defaultFileStorage` and
// `\.defaultAppStorage`: where keyed shared values live, as a dependency value, so that a store
// carries it to every action and effect and a test gets one of its own.
import Dependencies

private enum SharedStorageKey: DependencyKey {
  static var liveValue: SharedStorage { .live }
  // NB: swift-dependencies caches a test value per test, so a test's body and the stores it
  // builds share this storage, and no other test sees it.
  static var testValue: SharedStorage { .inMemory() }
  static var previewValue: SharedStorage { .inMemory() }
}

extension DependencyValues {
  /// Where keyed shared values live: their files, defaults, in-memory values and clock.
  ///
  /// ``SharedStorage/live`` in an app; in a test, an in-memory storage of the test's own, which
  /// the shared values the test's body makes and those of its stores share. A store keeps the
  /// storage in force when it is made:
  ///
  /// ```swift
  /// let store = Store(initialState: Settings.State()) {
  ///   Settings()
  /// } withDependencies: {
  ///   $0.sharedStorage = .inMemory()   // a preview's or a UI test's store
  /// }
  /// ```
  public var sharedStorage: SharedStorage {
    get { self[SharedStorageKey.self] }
    set { self[SharedStorageKey.self] = newValue }
  }

  /// The files that `.fileStorage` keys read and write: TCA's `\.defaultFileStorage`.
  ///
  /// Setting it makes a new ``sharedStorage`` over these files (with the same defaults and
  /// clock), holding no shared value of the previous one.
  ///
  /// ```swift
  /// withDependencies { $0.defaultFileStorage = .inMemory() } operation: { … }
  /// ```
  public var defaultFileStorage: SharedFileSystem {
    get { sharedStorage.files }
    set { sharedStorage = sharedStorage.replacing(files: newValue) }
  }

  /// The defaults that `.appStorage` keys read and write: TCA's `\.defaultAppStorage`.
  ///
  /// Setting it makes a new ``sharedStorage`` over these defaults (with the same files and
  /// clock), holding no shared value of the previous one.
  ///
  /// ```swift
  /// withDependencies { $0.defaultAppStorage = .inMemory() } operation: { … }
  /// ```
  public var defaultAppStorage: SharedDefaults {
    get { sharedStorage.defaults }
    set { sharedStorage = sharedStorage.replacing(defaults: newValue) }
  }
}
