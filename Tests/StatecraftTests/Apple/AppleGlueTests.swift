import Clocks
import ConcurrencyExtras
import Testing

@testable import Statecraft

/// The decisions behind the SwiftUI and UIKit glue (`Sources/Statecraft/Apple/`), tested where
/// they live: the glue itself only hands these types to the frameworks.
extension Engine {
  @MainActor
  @Suite struct AppleGlueTests {
    // MARK: - StoreLifetime (`@OwnedStore`)

    @Test func aLifetimeCreatesItsStoreOnTheFirstReadAndKeepsIt() {
      var made = 0
      let lifetime = StoreLifetime<Counter.State, Counter.Action> {
        made += 1
        return Store(initialState: Counter.State()) { Counter() }
      }
      #expect(made == 0)
      #expect(!lifetime.isStoreCreated)
      let store = lifetime.store
      store.send(.increment)
      #expect(lifetime.store === store)
      #expect(lifetime.store.count == 1)
      #expect(made == 1)
      #expect(lifetime.isStoreCreated)
    }

    @Test func aDiscardedLifetimeNeverCreatesItsStore() {
      var made = 0
      // What SwiftUI does with the `@State` value of a view initialized again: drops it unread.
      _ = StoreLifetime<Counter.State, Counter.Action> {
        made += 1
        return Store(initialState: Counter.State()) { Counter() }
      }
      #expect(made == 0)
    }

    @Test func releasingALifetimeReleasesItsStoreAndCancelsItsEffects() async {
      let clock = TestClock()
      let started = Gate()
      let wasCancelled = LockIsolated(false)
      var lifetime: StoreLifetime<Int, Int>? = StoreLifetime {
        Store(initialState: 0) {
          Reduce { _, _ in
            .run { _ in
              started.open()
              do {
                try await clock.sleep(for: .seconds(10))
              } catch {
                wasCancelled.setValue(true)
              }
            }
          }
        }
      }
      weak let store = lifetime?.store
      let effect = store?.send(1)
      await started.wait()
      lifetime = nil
      #expect(store == nil)
      await effect?.finish()
      #expect(wasCancelled.value)
    }

    // MARK: - Observation bound to an owner (UIKit, AppKit)

    final class Label: StoreObserving {
      var text = ""
      var renders = 0
    }

    @Test func anOwnedObservationRendersWhatItReadWhenItChanges() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let label = Label()
      label.observe(store) { label, store in
        label.renders += 1
        label.text = "\(store.count)"
      }
      #expect(label.text == "0")
      store.send(.increment)
      #expect(label.text == "1")
      store.send(.setText("unrelated"))
      #expect(label.renders == 2)
    }

    @Test func anOwnedObservationDoesNotKeepItsOwnerAlive() {
      let store = Store(initialState: Counter.State()) { Counter() }
      var label: Label? = Label()
      weak let weakLabel = label
      store.observe(label!) { label, store in label.text = "\(store.count)" }
      label = nil
      #expect(weakLabel == nil)
    }

    @Test func anOwnedObservationEndsWithItsOwner() {
      let store = Store(initialState: Counter.State()) { Counter() }
      var label: Label? = Label()
      let renders = LockIsolated(0)
      weak let token = store.observe(label!) { _, store in
        _ = store.count
        renders.withValue { $0 += 1 }
      }
      #expect(token != nil)
      label = nil
      store.send(.increment)
      #expect(renders.value == 1)
      // The store dropped the observation at the first batch after its owner went away.
      #expect(token == nil)
    }

    @Test func aCancelledOwnedObservationStopsAndIsDropped() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let label = Label()
      weak let token = label.observe(store) { label, store in label.text = "\(store.count)" }
      token?.cancel()
      store.send(.increment)
      #expect(label.text == "0")
      #expect(token == nil)
    }

    @Test func anOwnedObservationEndsWithTheStore() {
      var store: StoreOf<Counter>? = Store(initialState: Counter.State()) { Counter() }
      let label = Label()
      weak let token = label.observe(store!) { label, store in label.text = "\(store.count)" }
      weak let weakStore = store
      store = nil
      #expect(weakStore == nil)
      #expect(token == nil)
    }

    // MARK: - StoreBinding → SwiftUI.Binding

    /// The shape of SwiftUI's `Binding.init(get:set:)`: what `Binding(_: StoreBinding)` passes
    /// the store binding's accessors to.
    struct SwiftUIShapedBinding<Value> {
      let get: @isolated(any) @Sendable () -> Value
      let set: @isolated(any) @Sendable (Value) -> Void

      init(
        get: @escaping @isolated(any) @Sendable () -> Value,
        set: @escaping @isolated(any) @Sendable (Value) -> Void
      ) {
        self.get = get
        self.set = set
      }
    }

    @Test func aStoreBindingsAccessorsKeepTheirMainActorIsolation() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      let count = store.binding(\.count, send: Counter.Action.setCount)
      let binding = SwiftUIShapedBinding(get: count.getter, set: count.setter)
      #expect(binding.get.isolation === MainActor.shared)
      #expect(binding.set.isolation === MainActor.shared)
      await binding.set(3)
      #expect(store.count == 3)
      #expect(await binding.get() == 3)
    }
  }
}
