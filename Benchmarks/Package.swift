// swift-tools-version: 6.1

import PackageDescription

// `.package(path: "..")` is identified by the name of the directory the repository is cloned in
// ("main" here, something else in CI), so the product names its package by that identity.
let statecraftPackage =
  Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() }
  ?? "statecraft"

let package = Package(
  name: "StatecraftBenchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(path: ".."),
    .package(
      url: "https://github.com/ordo-one/package-benchmark", from: "1.29.0",
      traits: ["MallocInterposer"]),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
  ],
  targets: [
    .executableTarget(
      name: "StatecraftBenchmarks",
      dependencies: [
        .product(name: "Statecraft", package: statecraftPackage),
        .product(name: "StatecraftInspector", package: statecraftPackage),
        .product(name: "StatecraftExploration", package: statecraftPackage),
        .product(name: "Benchmark", package: "package-benchmark"),
        .product(name: "CasePathsCore", package: "swift-case-paths"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
      ],
      path: "Benchmarks/StatecraftBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    )
  ],
  swiftLanguageModes: [.v6]
)
