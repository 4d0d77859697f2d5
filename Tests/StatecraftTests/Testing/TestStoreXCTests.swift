import Clocks
import StatecraftTesting
import XCTest

@testable import Statecraft

/// The test store under XCTest: the same assertions work there.
final class TestStoreXCTests: XCTestCase {
  @MainActor
  func testATestStoreDrivesAReducerUnderXCTest() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.incrementThrice)
    await store.receive(.increment) { $0.count = 2 }
    await store.receive(.increment) { $0.count = 3 }
    await store.receive(.increment) { $0.count = 4 }
    await store.finish()
  }
}
