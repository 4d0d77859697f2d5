import Clocks
import PropertyBased
import Testing

@testable import Statecraft

/// Random sequences of sends, cancellations, rows and child state appearing and disappearing,
/// run on a real store and checked step by step against a small reference model.
extension Engine {
  @MainActor
  @Suite struct ModelTests {
    /// What the store should hold, by the semantics the engine documents.
    struct Model: Equatable {
      var rows: [(id: Int, value: Int)] = []
      var detail: (id: Int, value: Int)?
      var pendingRows: Set<Int> = []
      var pendingDetail = false

      static func == (lhs: Model, rhs: Model) -> Bool {
        lhs.rows.map(\.id) == rhs.rows.map(\.id) && lhs.rows.map(\.value) == rhs.rows.map(\.value)
          && lhs.detail?.id == rhs.detail?.id && lhs.detail?.value == rhs.detail?.value
      }

      func index(of id: Int) -> Int? { rows.firstIndex { $0.id == id } }
    }

    enum Step: CustomStringConvertible {
      case add(Int), remove(Int), load(Int), toggle(Int), show(Int), hide, loadDetail, advance

      init(_ code: Int) {
        let id = code / 8 % 4
        switch code % 8 {
        case 0: self = .add(id)
        case 1: self = .remove(id)
        case 2: self = .load(id)
        case 3: self = .toggle(id)
        case 4: self = .show(id)
        case 5: self = .hide
        case 6: self = .loadDetail
        default: self = .advance
        }
      }

      var description: String {
        switch self {
        case .add(let id): "add(\(id))"
        case .remove(let id): "remove(\(id))"
        case .load(let id): "load(\(id))"
        case .toggle(let id): "toggle(\(id))"
        case .show(let id): "show(\(id))"
        case .hide: "hide"
        case .loadDetail: "loadDetail"
        case .advance: "advance"
        }
      }
    }

    /// Runs `steps` on a store and on the model; returns the first divergence, if any.
    func run(_ steps: [Step]) async -> String? {
      let clock = TestClock()
      let store = Store(initialState: List.State()) { List(clock: clock) }
      var model = Model()
      var rowTasks: [Int: StoreTask] = [:]
      var detailTask: StoreTask?

      for (index, step) in steps.enumerated() {
        switch step {
        case .add(let id):
          store.send(.addRow(id))
          if model.index(of: id) == nil { model.rows.append((id, 0)) }
        case .remove(let id):
          store.send(.removeRow(id))
          if let at = model.index(of: id) { model.rows.remove(at: at) }
          model.pendingRows.remove(id)
          await rowTasks.removeValue(forKey: id)?.finish()
        case .load(let id):
          guard model.index(of: id) != nil else { continue }
          let previous = rowTasks[id]
          rowTasks[id] = store.send(.rows(.element(id: id, action: .load)))
          await previous?.finish()  // cancelled in flight
          model.pendingRows.insert(id)
        case .toggle(let id):
          guard let at = model.index(of: id) else { continue }
          store.send(.rows(.element(id: id, action: .toggle)))
          model.rows[at].value = model.rows[at].value == 0 ? 1 : 0
        case .show(let id):
          guard model.detail == nil else { continue }
          store.send(.showDetail(id))
          model.detail = (id, 0)
        case .hide:
          store.send(.hideDetail)
          model.detail = nil
          model.pendingDetail = false
          await detailTask?.finish()
          detailTask = nil
        case .loadDetail:
          guard model.detail != nil else { continue }
          let previous = detailTask
          detailTask = store.send(.detail(.load))
          await previous?.finish()
          model.pendingDetail = true
        case .advance:
          await clock.advance(by: .seconds(1))
          for task in rowTasks.values { await task.finish() }
          await detailTask?.finish()
          rowTasks.removeAll()
          detailTask = nil
          for id in model.pendingRows {
            if let at = model.index(of: id) { model.rows[at].value = id * 10 }
          }
          if model.pendingDetail, let detail = model.detail {
            model.detail = (detail.id, detail.id * 10)
          }
          model.pendingRows.removeAll()
          model.pendingDetail = false
        }
        let actual = Model(
          rows: store.rows.map { ($0.id, $0.value) },
          detail: store.detail.map { ($0.id, $0.value) })
        let running = model.pendingRows.count + (model.pendingDetail ? 1 : 0)
        if actual != model || store.runningEffectCount != running {
          return """
            after step \(index) (\(step)) of \(steps): store rows \(actual.rows), detail \
            \(String(describing: actual.detail)), \(store.runningEffectCount) effects; model rows \
            \(model.rows), detail \(String(describing: model.detail)), \(running) effects
            """
        }
      }
      for id in store.rows.ids { store.send(.removeRow(id)) }
      store.send(.hideDetail)
      for task in rowTasks.values { await task.finish() }
      await detailTask?.finish()
      return store.runningEffectCount == 0
        ? nil : "\(store.runningEffectCount) effects still running after everything was removed"
    }

    @Test func randomSequencesMatchTheModel() async {
      await propertyCheck(count: 300, input: Gen.int(in: 0...63).array(of: 1...40)) { codes in
        let divergence = await run(codes.map(Step.init))
        #expect(divergence == nil)
      }
    }
  }
}
