import CasePathsCore

extension Reducer {
  /// Runs a child reducer on one case of this reducer's enum state, before this reducer: TCA's
  /// `ifCaseLet`.
  ///
  /// ```swift
  /// Reduce { state, action in
  ///   switch action {
  ///   case .logOutTapped: state = .loggedOut(LoggedOut.State()); return .none
  ///   case .loggedIn: return .none
  ///   }
  /// }
  /// .ifCaseLet(\.loggedIn, action: \.loggedIn) { LoggedIn() }
  /// ```
  ///
  /// It is `Scope(state:action:)` over the case, run before this reducer: the child's effects are
  /// cancelled when the state leaves the case, and a child action that arrives while the state is
  /// in another case is reported as an issue.
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer<CaseState, CaseAction>>(
    _ toCaseState: AnyCasePath<State, CaseState>,
    action toCaseAction: AnyCasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _SequenceReducer<Scope<State, Action, Case>, Self> {
    _SequenceReducer(
      first: Scope(
        state: toCaseState, action: toCaseAction, child: `case`,
        fileID: fileID, filePath: filePath, line: line, column: column),
      second: self)
  }

  /// Runs a child reducer on one case of this reducer's enum state, before this reducer.
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer<CaseState, CaseAction>>(
    _ toCaseState: CaseKeyPath<State, CaseState>,
    action toCaseAction: CaseKeyPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _SequenceReducer<Scope<State, Action, Case>, Self> {
    ifCaseLet(
      AnyCasePath(toCaseState), action: AnyCasePath(toCaseAction), then: `case`,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
