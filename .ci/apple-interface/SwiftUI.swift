// NOT SwiftUI. A stand-in interface that lets Linux type-check Statecraft's Apple glue
// (Sources/Statecraft/Apple/): it declares only the SwiftUI types and members the glue uses,
// with the signatures and isolation Apple documents for the iOS 18 / macOS 15 SDKs, and bodies
// that do nothing. Nothing here runs; `.ci/check-apple-glue` compiles the glue against it.
// Keep it small: add a declaration when the glue starts using it, copied from Apple's
// documentation (its `nonisolated`, `@MainActor`, `@Sendable` and `@isolated(any)` included).

// MARK: - Views and their builder

@MainActor @preconcurrency
public protocol View {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency var body: Body { get }
}

extension Never: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

extension Optional: View where Wrapped: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

public struct EmptyView: View {
  public nonisolated init() {}
  public var body: Never { fatalError() }
}

@resultBuilder
public struct ViewBuilder {
  public static func buildBlock() -> EmptyView { EmptyView() }
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
}

// MARK: - State and bindings

public protocol DynamicProperty {
  mutating func update()
}

extension DynamicProperty {
  public mutating func update() {}
}

@frozen @propertyWrapper
public struct Binding<Value> {
  private let get: @isolated(any) @Sendable () -> Value

  @preconcurrency
  public init(
    get: @escaping @isolated(any) @Sendable () -> Value,
    set: @escaping @isolated(any) @Sendable (Value) -> Void
  ) {
    self.get = get
  }

  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set {}
  }
}

@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
  private var value: Value

  public init(wrappedValue value: Value) { self.value = value }

  public var wrappedValue: Value {
    get { value }
    nonmutating set {}
  }
}

extension State: Sendable where Value: Sendable {}

// MARK: - The views the glue makes

@frozen
public struct Text: View, Equatable, Sendable {
  public nonisolated init(verbatim content: String) {}
  public var body: Never { fatalError() }
}

public struct ButtonRole: Equatable, Sendable {
  public static let destructive = ButtonRole()
  public static let cancel = ButtonRole()
}

public struct Button<Label: View>: View {
  @preconcurrency
  public nonisolated init(
    role: ButtonRole?, action: @escaping @MainActor () -> Void,
    @ViewBuilder label: () -> Label
  ) {}
  public var body: Never { fatalError() }
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
  public var body: Never { fatalError() }
}

extension ForEach: View where Content: View {
  public nonisolated init(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @ViewBuilder content: @escaping (Data.Element) -> Content
  ) {}
}

public struct NavigationStack<Data, Root: View>: View {
  @MainActor @preconcurrency
  public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
  where
    Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection,
    Data.Element: Hashable
  {}
  public var body: Never { fatalError() }
}

public enum Visibility: Hashable, CaseIterable, Sendable {
  case automatic, visible, hidden
}

// MARK: - Animation

@frozen
public struct Animation: Equatable, Sendable {
  public static let `default` = Animation()
  public static var linear: Animation { Animation() }
  public static var easeIn: Animation { Animation() }
  public static var easeOut: Animation { Animation() }
  public static var easeInOut: Animation { Animation() }
  public static var spring: Animation { Animation() }
  public static var smooth: Animation { Animation() }
  public static var snappy: Animation { Animation() }
  public static var bouncy: Animation { Animation() }
}

public func withAnimation<Result>(
  _ animation: Animation? = .default, _ body: () throws -> Result
) rethrows -> Result {
  try body()
}

// MARK: - Presentation and navigation modifiers

extension View {
  public nonisolated func sheet<Item: Identifiable, Content: View>(
    item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
    @ViewBuilder content: @escaping (Item) -> Content
  ) -> some View { self }

  @available(macOS, unavailable)
  public nonisolated func fullScreenCover<Item: Identifiable, Content: View>(
    item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
    @ViewBuilder content: @escaping (Item) -> Content
  ) -> some View { self }

  public nonisolated func navigationDestination<D: Hashable, C: View>(
    item: Binding<D?>, @ViewBuilder destination: @escaping (D) -> C
  ) -> some View { self }

  public nonisolated func navigationDestination<D: Hashable, C: View>(
    for data: D.Type, @ViewBuilder destination: @escaping (D) -> C
  ) -> some View { self }

  public nonisolated func alert<A: View, M: View, T>(
    _ title: Text, isPresented: Binding<Bool>, presenting data: T?,
    @ViewBuilder actions: (T) -> A, @ViewBuilder message: (T) -> M
  ) -> some View { self }

  public nonisolated func confirmationDialog<A: View, M: View, T>(
    _ title: Text, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
    presenting data: T?, @ViewBuilder actions: (T) -> A, @ViewBuilder message: (T) -> M
  ) -> some View { self }
}
