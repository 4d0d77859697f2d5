import Benchmark
import Observation
import Statecraft

// R1, R2 and W5 (issue 26): what a view pays to read a store, outside and inside Observation's
// tracking, and what an observed send costs against a plain one.
//
// - R1: `store.count` of a root store, against the floor: the same field of a struct held by a
//   final class, with a compiler barrier (`blackHole`) at each read so that each load happens.
// - R1 tracked: the same reads inside `withObservationTracking` (1,000 reads per tracking, as a
//   view's body reads many fields per render), against the untracked ones; and, to tell
//   Observation's own share, a hand-written `Observable` class read the same way.
// - R2: a row store's field, against the same floor holding a row.
// - W5: a send that toggles a row whose row store a view observes (the view re-reads it after
//   each change, as a render does), against the same send with no row stores.

/// How many reads R1 makes.
let r1Reads = 1_000_000
/// How many reads R1 makes inside one `withObservationTracking`.
let r1ReadsPerTracking = 1_000
/// How many reads R2 makes.
let r2Reads = 100_000

@MainActor @inline(never)
func readCount(_ store: StoreOf<Counter>) -> Int {
  store.count
}

@MainActor @inline(never)
func readIsOn(_ store: StoreOf<Row>) -> Bool {
  store.isOn
}

/// The R1 and R2 floor: a struct held by a final class, read through a call that is not inlined.
final class StateHolder<State> {
  var state: State
  init(_ state: State) { self.state = state }
}

@inline(never)
func readCount(_ holder: StateHolder<Counter.State>) -> Int {
  holder.state.count
}

@inline(never)
func readIsOn(_ holder: StateHolder<Row.State>) -> Bool {
  holder.state.isOn
}

/// What the `@Observable` macro writes for one stored property: the R1 tracked floor.
final class ObservableCounter: Observable {
  private let registrar = ObservationRegistrar()
  private var storedCount = 1

  var count: Int {
    registrar.access(self, keyPath: \.count)
    return storedCount
  }
}

@inline(never)
func readCount(_ counter: ObservableCounter) -> Int {
  counter.count
}

// MARK: - R1

@MainActor
func r1Store(_ handle: BenchmarkHandle) {
  let store = Store(initialState: Counter.State(count: 1), reducer: Counter())
  var sum = 0
  handle.measure {
    for _ in 0..<r1Reads { sum &+= readCount(store) }
  }
  handle.check(sum == r1Reads, "R1: sum is \(sum)")
}

@MainActor
func r1Tracked(_ handle: BenchmarkHandle) {
  let store = Store(initialState: Counter.State(count: 1), reducer: Counter())
  var sum = 0
  handle.measure {
    for _ in 0..<(r1Reads / r1ReadsPerTracking) {
      withObservationTracking {
        for _ in 0..<r1ReadsPerTracking { sum &+= readCount(store) }
      } onChange: {
      }
    }
  }
  handle.check(sum == r1Reads, "R1 tracked: sum is \(sum)")
}

@MainActor
func r1TrackedFloor(_ handle: BenchmarkHandle) {
  let counter = ObservableCounter()
  var sum = 0
  handle.measure {
    for _ in 0..<(r1Reads / r1ReadsPerTracking) {
      withObservationTracking {
        for _ in 0..<r1ReadsPerTracking {
          blackHole(counter)
          sum &+= readCount(counter)
        }
      } onChange: {
      }
    }
  }
  handle.check(sum == r1Reads, "R1 tracked floor: sum is \(sum)")
}

@MainActor
func r1Floor(_ handle: BenchmarkHandle) {
  let holder = StateHolder(Counter.State(count: 1))
  var sum = 0
  handle.measure {
    for _ in 0..<r1Reads {
      // NB: the holder escapes at each read, so the read can't be hoisted out of the loop.
      blackHole(holder)
      sum &+= readCount(holder)
    }
  }
  handle.check(sum == r1Reads, "R1 floor: sum is \(sum)")
}

// MARK: - R2

@MainActor
func r2Store(_ handle: BenchmarkHandle) {
  let store = Store(initialState: Rows.State(count: Size.observedRows)) { Rows() }
  let id = Size.observedRows / 2
  store.send(Rows.toggle(id))
  let rowStore = store.scope(state: \.rows, id: id, action: Rows.Action.rows)!
  var on = 0
  handle.measure {
    for _ in 0..<r2Reads where readIsOn(rowStore) { on += 1 }
  }
  handle.check(on == r2Reads, "R2: \(on) reads saw the row on")
}

@MainActor
func r2Floor(_ handle: BenchmarkHandle) {
  let holder = StateHolder(Row.State(id: 0, title: "Row 0", isOn: true))
  var on = 0
  handle.measure {
    for _ in 0..<r2Reads {
      blackHole(holder)
      if readIsOn(holder) { on += 1 }
    }
  }
  handle.check(on == r2Reads, "R2 floor: \(on) reads saw the row on")
}

// MARK: - R3

/// A list's first render: each of 1,000 rows gets its row store, read once under
/// `withObservationTracking`.
@MainActor
func r3Store(_ handle: BenchmarkHandle) {
  let store = Store(initialState: Rows.State(count: Size.observedRows)) { Rows() }
  var rowStores: [StoreOf<Row>] = []
  rowStores.reserveCapacity(Size.observedRows)
  var on = 0
  handle.measure {
    for id in 0..<Size.observedRows {
      withObservationTracking {
        let rowStore = store.scope(state: \.rows, id: id, action: Rows.Action.rows)!
        if rowStore.isOn { on += 1 }
        rowStores.append(rowStore)
      } onChange: {
      }
    }
  }
  handle.check(on == 0 && rowStores.count == Size.observedRows, "R3: \(on) rows read as on")
}

/// R3's floor: the first read of each of 1,000 `Observable` rows under tracking (the rows are
/// made before).
@MainActor
func r3Floor(_ handle: BenchmarkHandle) {
  let rows = (0..<Size.observedRows).map { _ in ObservableRow() }
  var on = 0
  handle.measure {
    for row in rows {
      withObservationTracking {
        if row.isOn { on += 1 }
      } onChange: {
      }
    }
  }
  handle.check(on == 0, "R3 floor: \(on) rows read as on")
}

// MARK: - W5

/// 1,000 sends, each toggling one row of 1,000; with `observed`, every row has a row store that a
/// view observes with `withObservationTracking`, and re-reads after each change.
@MainActor
func w5Store(observed: Bool, _ handle: BenchmarkHandle) {
  let store = Store(initialState: Rows.State(count: Size.observedRows)) { Rows() }
  let notifications = Notifications()
  var rowStores: [StoreOf<Row>] = []
  func render(_ index: Int) {
    withObservationTracking {
      _ = rowStores[index].isOn
    } onChange: {
      notifications.count += 1
      notifications.last = index
    }
  }
  if observed {
    rowStores = (0..<Size.observedRows).map { id in
      store.scope(state: \.rows, id: id, action: Rows.Action.rows)!
    }
    for index in rowStores.indices { render(index) }
  }
  var wrong = 0
  handle.measure {
    for send in 0..<Size.observerSends {
      let id = send % Size.observedRows
      notifications.count = 0
      store.send(Rows.toggle(id))
      if observed {
        if notifications.count != 1 || notifications.last != id { wrong += 1 }
        render(id)
      }
    }
  }
  handle.check(wrong == 0, "W5: \(wrong) sends did not notify exactly their row's observer")
  let on = store.state.rows.count(where: \.isOn)
  handle.check(on == min(Size.observerSends, Size.observedRows), "W5: \(on) rows are on")
}

/// A row as the `@Observable` macro writes it: the W5 Observation floor.
final class ObservableRow: Observable {
  private let registrar = ObservationRegistrar()
  private var storedIsOn = false

  var isOn: Bool {
    get {
      registrar.access(self, keyPath: \.isOn)
      return storedIsOn
    }
    set {
      registrar.willSet(self, keyPath: \.isOn)
      storedIsOn = newValue
      registrar.didSet(self, keyPath: \.isOn)
    }
  }
}

/// Not a target: W5's observed sends done by hand on `Observable` rows (a toggle of the row,
/// the view notified and re-reading it), to tell Observation's own share of an observed send.
@MainActor
func w5ObservableFloor(_ handle: BenchmarkHandle) {
  let rows = (0..<Size.observedRows).map { _ in ObservableRow() }
  let notifications = Notifications()
  func render(_ index: Int) {
    withObservationTracking {
      _ = rows[index].isOn
    } onChange: {
      notifications.count += 1
      notifications.last = index
    }
  }
  for index in rows.indices { render(index) }
  var wrong = 0
  handle.measure {
    for send in 0..<Size.observerSends {
      let id = send % Size.observedRows
      notifications.count = 0
      rows[id].isOn.toggle()
      if notifications.count != 1 || notifications.last != id { wrong += 1 }
      render(id)
    }
  }
  handle.check(wrong == 0, "W5 floor: \(wrong) toggles did not notify exactly their row's observer")
}
