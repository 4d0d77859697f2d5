import Statecraft

extension TestStore {
  /// A test store that runs a reactor from the initial state the reactor declares
  /// (a `ReactorWithInitialState`).
  ///
  /// ```swift
  /// let store = TestStore(reactor: CounterReactor())
  /// await store.send(.increment) { $0.count = 1 }
  /// ```
  public convenience init<R: ReactorWithInitialState>(
    reactor: R,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action, R.Mutation == ReceivedAction {
    self.init(
      initialState: reactor.initialState(), reactor: reactor, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}
