import ConcurrencyExtras
import StatecraftCombine
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The `@Shared` tests of the last Composable Architecture release that had them (1.16:
  /// `SharedTests`, `SharedReaderTests`) that use the API issue 27 added, ported to Statecraft's
  /// spelling: `Shared(value:)` for `Shared(_:)`, `SharedKey` and `SharedKeyDefault` for
  /// `PersistenceKey` and `PersistenceKeyDefault`, `withSharedStorage(.inMemory())` for the
  /// `defaultAppStorage` dependency, and Swift Testing's `withKnownIssue` for `XCTExpectFailure`.
  ///
  /// One difference is deliberate: a publisher emits after the change (the shared value already
  /// reads the new value), where TCA's emits before it, as `@Published` does.
  @MainActor
  @Suite struct TCASharedTests {
    // MARK: - SharedReader

    @Test func sharedReader() {
      @Shared var count: Int
      _count = Shared(value: 0)
      let countReader = $count.reader

      count += 1
      #expect(count == 1)
      #expect(countReader.wrappedValue == 1)
    }

    // MARK: - A settable projected value

    struct Counter: Reducer {
      struct State: Equatable {
        @Shared var count: Int
      }
      enum Action: Equatable {
        case increment
        case replace(Int)
      }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
          state.count += 1
        case .replace(let count):
          state.$count = Shared(value: count)
        }
        return .none
      }
    }

    /// `$count = Shared(…)` (TCA's `testObservation_projected`): the state holds another shared
    /// value, and a store's reader of `count` is told.
    @Test func observationProjected() async {
      let old = Shared(value: 0)
      let store = Store(initialState: Counter.State(count: old)) { Counter() }
      var seen: [Int] = []
      let token = store.observe { seen.append($0.count) }
      store.send(.replace(1))
      #expect(store.count == 1)
      store.send(.increment)
      #expect(store.count == 2)
      #expect(old.wrappedValue == 0)
      #expect(seen == [0, 1, 2])
      token.cancel()
    }

    @Test func aTestStoreAssertsAReplacedSharedValue() async {
      let store = TestStore(initialState: Counter.State(count: Shared(value: 0))) { Counter() }
      await store.send(.replace(1)) {
        $0.$count = Shared(value: 1)
      }
      await store.send(.increment) {
        $0.count = 2
      }
    }

    // MARK: - Shared.publisher

    @Test func publisher() {
      var cancellables: Set<AnyCancellable> = []
      defer { _ = cancellables }

      let sharedCount = Shared(value: 0)
      var counts = [Int]()
      sharedCount.publisher.sink { count in
        #expect(sharedCount.wrappedValue == count)
        counts.append(count)
      }
      .store(in: &cancellables)

      sharedCount.wrappedValue += 1
      #expect(counts == [1])
      sharedCount.wrappedValue += 1
      #expect(counts == [1, 2])
    }

    @Test func publisherMultipleSubscribers() {
      var cancellables: Set<AnyCancellable> = []
      defer { _ = cancellables }

      let sharedCount = Shared(value: 0)
      var counts = [Int]()
      sharedCount.publisher.sink { counts.append($0) }.store(in: &cancellables)
      sharedCount.publisher.sink { counts.append($0) }.store(in: &cancellables)

      sharedCount.wrappedValue += 1
      #expect(counts == [1, 1])
      sharedCount.wrappedValue += 1
      #expect(counts == [1, 1, 2, 2])
    }

    @Test func publisherMutateInSink() {
      var cancellables: Set<AnyCancellable> = []
      defer { _ = cancellables }

      let sharedCount = Shared(value: 0)
      var counts = [Int]()
      sharedCount.publisher.sink { count in
        counts.append(count)
        if count == 1 {
          sharedCount.wrappedValue = 2
        }
      }
      .store(in: &cancellables)

      sharedCount.wrappedValue += 1
      #expect(counts == [1, 2])
    }

    @Test func publisherPersistenceMutateInSink() {
      let storage = SharedStorage.inMemory()
      // NB: read inside, checked outside: see `sharedDefaultsUseDefault`.
      let (counts, count) = withSharedStorage(storage) {
        var cancellables: Set<AnyCancellable> = []
        defer { _ = cancellables }

        @Shared(.appStorage("count")) var count = 0
        var counts = [Int]()
        $count.publisher.sink { newCount in
          counts.append(newCount)
          if newCount == 1 {
            count = 2
          }
        }
        .store(in: &cancellables)

        count += 1
        return (counts, count)
      }
      #expect(counts == [1, 2])
      #expect(count == 2)
      #expect(storage.defaults.value(forKey: "count", as: Int.self) == 2)
    }

    @Test func aCancelledPublisherStopsAndADerivedOneEmitsItsField() {
      var cancellables: Set<AnyCancellable> = []
      let settings = Shared(value: Settings())
      var counts = [Int]()
      let isOn: Shared<Bool> = settings.isOn
      var isOnValues = [Bool]()
      let cancellable = settings.publisher.sink { counts.append($0.count) }
      isOn.publisher.sink { isOnValues.append($0) }.store(in: &cancellables)

      settings.wrappedValue.count += 1
      cancellable.cancel()
      settings.wrappedValue.count += 1
      isOn.wrappedValue = true
      #expect(counts == [1])
      #expect(isOnValues == [false, false, true])
      #expect(settings.wrappedValue == Settings(isOn: true, count: 2))
    }

    // MARK: - Keys with a default

    // NB: the tests below read their local wrapped properties inside the storage's closure and
    // check what it returns outside it. A '#expect' in the same closure as the initial value of a
    // local wrapped property, or as another `Bool` autoclosure, is miscompiled by the 6.3
    // compiler (its operand calls the other autoclosure) or crashes it ("function type
    // mismatch"); TCA's originals check in place.

    @Test func sharedDefaultsUseDefault() {
      let isOn = withSharedStorage(.inMemory()) {
        @Shared(.isOn) var isOn
        return isOn
      }
      #expect(isOn == false)
    }

    @Test func sharedDefaultsOverrideDefault() {
      let isOn = withSharedStorage(.inMemory()) {
        @Shared(.isOn) var isOn = true
        return isOn
      }
      #expect(isOn == true)
    }

    @Test func sharedDefaultsMultipleWithDifferentDefaults() {
      let seen = withSharedStorage(.inMemory()) {
        @Shared(.isOn) var isOn1
        @Shared(.isOn) var isOn2 = true
        @Shared(.appStorage("isOn")) var isOn3 = true
        var seen = [[isOn1, isOn2, isOn3]]
        isOn2 = true
        seen.append([isOn1, isOn2, isOn3])
        isOn1 = false
        seen.append([isOn1, isOn2, isOn3])
        isOn3 = true
        seen.append([isOn1, isOn2, isOn3])
        return seen
      }
      #expect(
        seen == [
          [false, false, false],
          [true, true, true],
          [false, false, false],
          [true, true, true],
        ])
    }

    @Test func sharedDefaultsUsed() {
      let didAccess = LockIsolated(false)
      let logDefault: @Sendable () -> Bool = {
        didAccess.setValue(true)
        return true
      }
      let isActive = withSharedStorage(.inMemory()) {
        @Shared(.isActive(default: logDefault)) var isActive
        return isActive
      }
      #expect(isActive == true)
      #expect(didAccess.value == true)
    }

    @Test func sharedDefaultsUnused() {
      let didAccess = LockIsolated(false)
      let logDefault: @Sendable () -> Bool = {
        didAccess.setValue(true)
        return true
      }
      let isActive = withSharedStorage(.inMemory()) {
        @Shared(.isActive(default: logDefault)) var isActive = false
        return isActive
      }
      #expect(isActive == false)
      #expect(didAccess.value == false)
    }

    @Test func sharedInitialValueUnused() {
      let accessedIsOn1 = LockIsolated(false)
      let accessedIsOn2 = LockIsolated(false)
      let (isOn1, isOn2) = withSharedStorage(.inMemory()) {
        @Shared(.isOn) var isOn1 = logged(accessedIsOn1, false)
        @Shared(.isOn) var isOn2 = logged(accessedIsOn2, true)
        return (isOn1, isOn2)
      }
      #expect(isOn1 == false)
      #expect(isOn2 == false)
      #expect(accessedIsOn1.value == true)
      #expect(accessedIsOn2.value == false)
    }

    @Test func sharedOverrideDefault() {
      let accessedActive1 = LockIsolated(false)
      let accessedDefault = LockIsolated(false)
      let logDefault: @Sendable () -> Bool = {
        accessedDefault.setValue(true)
        return true
      }
      let (isActive1, isActive2) = withSharedStorage(.inMemory()) {
        @Shared(.isActive(default: logDefault)) var isActive1 = logged(accessedActive1, false)
        @Shared(.isActive(default: logDefault)) var isActive2
        return (isActive1, isActive2)
      }
      #expect(isActive1 == false)
      #expect(isActive2 == false)
      #expect(accessedActive1.value == true)
      #expect(accessedDefault.value == false)
    }

    @Test func sharedReaderInitialValueUnused() {
      let accessedIsOn1 = LockIsolated(false)
      let accessedIsOn2 = LockIsolated(false)
      let (isOn1, isOn2) = withSharedStorage(.inMemory()) {
        @SharedReader(.isOn) var isOn1 = logged(accessedIsOn1, false)
        @SharedReader(.isOn) var isOn2 = logged(accessedIsOn2, true)
        return (isOn1, isOn2)
      }
      #expect(isOn1 == false)
      #expect(isOn2 == false)
      #expect(accessedIsOn1.value == true)
      #expect(accessedIsOn2.value == false)
    }

    @Test func sharedReaderOverrideDefault() {
      let accessedActive1 = LockIsolated(false)
      let accessedDefault = LockIsolated(false)
      let logDefault: @Sendable () -> Bool = {
        accessedDefault.setValue(true)
        return true
      }
      let (isActive1, isActive2) = withSharedStorage(.inMemory()) {
        @SharedReader(.isActive(default: logDefault)) var isActive1 = logged(accessedActive1, false)
        @SharedReader(.isActive(default: logDefault)) var isActive2
        return (isActive1, isActive2)
      }
      #expect(isActive1 == false)
      #expect(isActive2 == false)
      #expect(accessedActive1.value == true)
    }

    @Test func sharedThrowingInitialValueUnused() {
      withSharedStorage(.inMemory()) { () -> Void in
        #expect(throws: SharedLoadError.self) { _ = try Shared(.noDefaultIsOn) }
      }
    }

    @Test func sharedReaderThrowingInitialValueUnused() {
      withSharedStorage(.inMemory()) { () -> Void in
        #expect(throws: SharedLoadError.self) { _ = try SharedReader(.noDefaultIsOn) }
      }
    }

    @Test func aThrowingSharedLoadsWhatIsStoredOrHeld() throws {
      let storage = SharedStorage.inMemory()
      let (stored, held) = try withSharedStorage(storage) {
        storage.defaults.set(true, forKey: "noDefaultIsOn")
        let stored = try Shared(.noDefaultIsOn).wrappedValue
        @Shared(.inMemory("held")) var held = 7
        return (stored, try Shared<Int>(.inMemory("held")).wrappedValue)
      }
      #expect(stored == true)
      #expect(held == 7)
    }

    @Test func sharedReaderDefaultsMultipleWithDifferentDefaults() {
      // NB: read inside, checked outside: see `sharedDefaultsUseDefault`.
      let (before, after) = withSharedStorage(.inMemory()) {
        @Shared(.appStorage("isOn")) var isOn = false
        @SharedReader(.isOn) var isOn1
        @SharedReader(.isOn) var isOn2 = true
        @SharedReader(.appStorage("isOn")) var isOn3 = true
        let before = [isOn1, isOn2, isOn3]
        isOn = true
        return (before, [isOn1, isOn2, isOn3])
      }
      #expect(before == [false, false, false])
      #expect(after == [true, true, true])
    }

    // MARK: - Derived shared values and change tracking

    struct Settings: Equatable, Sendable {
      var isOn = false
      var hasSeen = false
      var count = 0
    }

    @Test func equatableDifferentKeyPath() {
      // NB: a value of its own rather than TCA's `.inMemory("settings")` key: see
      // `sharedDefaultsUseDefault`.
      @Shared var settings: Settings
      _settings = Shared(value: Settings())
      let isOn: Shared<Bool> = $settings.isOn
      let hasSeen: Shared<Bool> = $settings.hasSeen
      #expect(isOn == hasSeen)
      withSharedChangeTracking { tracker in
        settings.isOn.toggle()
        #expect(settings.isOn != settings.hasSeen)
        #expect(isOn != hasSeen)
        #expect(hasSeen != isOn)
        // NB: TCA's assertion doesn't check what it wrote; Statecraft's reports the expected
        // value (hasSeen toggled) that doesn't match the real one (isOn toggled).
        withKnownIssue {
          tracker.assert {
            #expect(settings.isOn == settings.hasSeen)
            #expect(isOn == hasSeen)
            #expect(hasSeen == isOn)
            settings.hasSeen.toggle()
            #expect(settings.isOn != settings.hasSeen)
            #expect(isOn != hasSeen)
            #expect(hasSeen != isOn)
          }
        } matching: {
          $0.description.contains("A shared value does not match the assertion")
        }
      }
    }

    @Test func basicAssertion() {
      let count = Shared(value: 0)
      withSharedChangeTracking { tracker in
        count.wrappedValue += 1
        tracker.assert {
          count.wrappedValue += 1
          #expect(count == count)
          #expect(count.wrappedValue == count.wrappedValue)
        }
        #expect(count == count)
        #expect(count.wrappedValue == count.wrappedValue)
      }
      #expect(count == count)
      #expect(count.wrappedValue == count.wrappedValue)
    }

    @Test func anAssertionThatDoesNotMatchFails() {
      let count = Shared(value: 0)
      withSharedChangeTracking { tracker in
        count.wrappedValue += 1
        withKnownIssue {
          tracker.assert { count.wrappedValue = 2 }
        } matching: {
          $0.description.contains("A shared value does not match the assertion")
        }
      }
      #expect(count.wrappedValue == 1)
    }

    @Test func readsThroughDerivedSharedValuesObserveOneFieldEntry() {
      let settings = Shared(value: Settings())
      for _ in 1...200 {
        let isOn: Shared<Bool> = settings.isOn
        let count: SharedReader<Int> = settings.reader.count
        _ = isOn.wrappedValue
        _ = count.wrappedValue
      }
      #expect(settings.reference!.observed.count == 2)
    }

    @Test func aDerivedSharedValueWritesItsFieldAndAReaderCantBeWritten() {
      let settings = Shared(value: Settings())
      let isOn: Shared<Bool> = settings.isOn
      let countReader: SharedReader<Int> = settings.reader.count
      isOn.wrappedValue = true
      settings.wrappedValue.count = 3
      #expect(settings.wrappedValue.isOn)
      #expect(countReader.wrappedValue == 3)
      #expect(isOn == Shared(value: true))
    }
  }
}

/// `value`, noting in `flag` that it was computed: TCA's
/// `{ flag.setValue(true); return value }()`.
private func logged(_ flag: LockIsolated<Bool>, _ value: Bool) -> Bool {
  flag.setValue(true)
  return value
}

extension SharedKey where Self == SharedKeyDefault<AppStorageKey<Bool>> {
  static var isOn: Self {
    SharedKeyDefault(.appStorage("isOn"), false)
  }

  static func isActive(default keyDefault: @escaping @Sendable () -> Bool) -> Self {
    SharedKeyDefault(.appStorage("isActive"), keyDefault())
  }
}

extension SharedKey where Self == AppStorageKey<Bool> {
  static var noDefaultIsOn: Self {
    appStorage("noDefaultIsOn")
  }
}
