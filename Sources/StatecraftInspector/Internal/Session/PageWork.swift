// Owns what each page has under way: its requests, answered one at a time in the order the page
// sent them, and the answer to its last "follow", which waits apart from them. The page's
// socket is read while its requests are answered, so that a "cancel" reaches the work it
// cancels: a view of a far step recomputed for seconds, or a test being generated, stops at its
// next slice. The socket's order is kept: a request is answered after every one before it.
import Foundation

/// The requests of each page under way or waiting their turn, and each page's last "follow".
@MainActor
final class PageWork {
  private struct Entry {
    let number: Int
    let task: Task<Void, Never>
    /// Whether a "cancel" stops it: a view, a generated test, or a move still recomputing (a
    /// move changes the store in one step at its end); never a commit or an action sent.
    let cancellable: Bool
  }

  /// The most requests of one page that wait their turn: past it, the socket is read no
  /// further until the oldest is answered.
  static let maximumQueued = 64

  private var queues: [ObjectIdentifier: [Entry]] = [:]
  private var follows: [ObjectIdentifier: Task<Void, Never>] = [:]
  private var nextNumber = 0
  /// The last answer to a "follow", cancelled or not (the tests await it).
  private(set) var lastFollow: Task<Void, Never>?

  /// Answers a request of `page` with `answer` once the page's requests before it are answered.
  ///
  /// - Returns: The answer's task, which ends when the answer was sent (or the request was
  ///   cancelled).
  @discardableResult
  func enqueue(
    for page: ObjectIdentifier, cancellable: Bool,
    _ answer: @escaping @MainActor () async -> Void
  ) async -> Task<Void, Never> {
    if let oldest = queues[page]?.first, queues[page]!.count >= Self.maximumQueued {
      await oldest.task.value
    }
    let previous = queues[page]?.last?.task
    nextNumber += 1
    let number = nextNumber
    let task = Task { [weak self] in
      await previous?.value
      if !(cancellable && Task.isCancelled) { await answer() }
      self?.queues[page]?.removeAll { $0.number == number }
      if self?.queues[page]?.isEmpty == true { self?.queues[page] = nil }
    }
    queues[page, default: []].append(Entry(number: number, task: task, cancellable: cancellable))
    return task
  }

  /// The page's last request under way or waiting, for a "follow" to wait for: its answer
  /// comes after theirs.
  func lastQueued(for page: ObjectIdentifier) -> Task<Void, Never>? { queues[page]?.last?.task }

  /// Makes `answer` the page's "follow" under way, in place of the one before.
  func follow(for page: ObjectIdentifier, _ answer: Task<Void, Never>) {
    follows.updateValue(answer, forKey: page)?.cancel()
    lastFollow = answer
  }

  /// Cancels the page's "follow" if one waits or is under way: the page asked for something
  /// else, and that answer would replace what the page now shows.
  @discardableResult
  func cancelFollow(for page: ObjectIdentifier) -> Bool {
    guard let follow = follows.removeValue(forKey: page) else { return false }
    follow.cancel()
    return true
  }

  /// Cancels the page's follow and its cancellable requests, under way or waiting, and returns
  /// once every request of the page sent before has ended: no answer to one comes after this.
  ///
  /// - Returns: How many were cancelled.
  func cancel(for page: ObjectIdentifier) async -> Int {
    var count = cancelFollow(for: page) ? 1 : 0
    let entries = queues[page] ?? []
    for entry in entries where entry.cancellable {
      entry.task.cancel()
      count += 1
    }
    for entry in entries { await entry.task.value }
    return count
  }

  /// Cancels whatever the page has under way: it is gone.
  func forget(_ page: ObjectIdentifier) {
    cancelFollow(for: page)
    for entry in queues.removeValue(forKey: page) ?? [] where entry.cancellable {
      entry.task.cancel()
    }
  }
}
