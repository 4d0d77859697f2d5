// Owns what `import Statecraft` brings of swift-dependencies: `@Dependency`, `DependencyValues`,
// `DependencyKey`, `withDependencies`, as `import ComposableArchitecture` does, so that a feature
// reads its dependencies without a second import.
@_exported import Dependencies
