import Statecraft

extension Store {
  /// A publisher of the store's state: the current state at once, then the state after each
  /// batch of actions, on the main actor. It completes when the store is released.
  ///
  /// ```swift
  /// store.publisher
  ///   .map(\.count)
  ///   .removeDuplicates()
  ///   .sink { label.text = "\($0)" }
  ///   .store(in: &cancellables)
  /// ```
  public var publisher: AnyPublisher<State, Never> {
    let subject = CurrentValueSubject<State, Never>(withState { $0 })
    // NB: the store holds the subject weakly: it lives as long as its subscribers do.
    onPublish(
      { [weak self, weak subject] in
        guard let self, let subject else { return false }
        subject.send(self.withState { $0 })
        return true
      },
      finish: { [weak subject] in subject?.send(completion: .finished) }
    )
    return subject.eraseToAnyPublisher()
  }
}
