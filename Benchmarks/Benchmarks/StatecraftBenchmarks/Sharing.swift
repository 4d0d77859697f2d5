import Benchmark
import Statecraft

// B12: reading a field of a shared value through a store, against reading a plain field of the
// state through a store, and against the floor: reading the field of a struct held by a class.

struct SharedSettings: Equatable, Sendable {
  var theme = 1
  var fontSize = 14
}

/// A feature whose state holds the same settings plainly and in a shared value.
struct SettingsReader: Reducer {
  struct State: Equatable {
    var plain = SharedSettings()
    var shared = Shared(value: SharedSettings())
  }
  func reduce(into state: inout State, action: Void) -> Effect<Void> { .none }
}

/// How many reads each B12 scenario makes.
let b12Reads = 100_000

@MainActor @inline(never)
func readSharedTheme(_ store: StoreOf<SettingsReader>) -> Int {
  store.shared.theme
}

@MainActor @inline(never)
func readPlainTheme(_ store: StoreOf<SettingsReader>) -> Int {
  store.plain.theme
}

final class PlainHolder {
  var state = SettingsReader.State()

  @inline(never)
  func readTheme() -> Int { state.plain.theme }
}

@MainActor
func b12Shared(_ handle: BenchmarkHandle) {
  let store = Store(initialState: SettingsReader.State(), reducer: SettingsReader())
  var sum = 0
  handle.measure {
    for _ in 0..<b12Reads { sum &+= readSharedTheme(store) }
  }
  handle.check(sum == b12Reads, "B12 shared: sum is \(sum)")
}

@MainActor
func b12Plain(_ handle: BenchmarkHandle) {
  let store = Store(initialState: SettingsReader.State(), reducer: SettingsReader())
  var sum = 0
  handle.measure {
    for _ in 0..<b12Reads { sum &+= readPlainTheme(store) }
  }
  handle.check(sum == b12Reads, "B12 plain: sum is \(sum)")
}

@MainActor
func b12Floor(_ handle: BenchmarkHandle) {
  let holder = PlainHolder()
  var sum = 0
  handle.measure {
    for _ in 0..<b12Reads {
      // NB: the holder escapes at each read, so the read can't be hoisted out of the loop.
      blackHole(holder)
      sum &+= holder.readTheme()
    }
  }
  handle.check(sum == b12Reads, "B12 floor: sum is \(sum)")
}
