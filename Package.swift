// swift-tools-version: 6.1

import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "Statecraft",
  platforms: [
    .iOS(.v17),
    .macOS(.v14),
    .tvOS(.v17),
    .watchOS(.v10),
  ],
  products: [
    .library(name: "Statecraft", targets: ["Statecraft"]),
    .library(name: "StatecraftTesting", targets: ["StatecraftTesting"]),
    .library(name: "StatecraftCombine", targets: ["StatecraftCombine"]),
    .library(name: "StatecraftInspector", targets: ["StatecraftInspector"]),
    .library(name: "StatecraftTestGenerator", targets: ["StatecraftTestGenerator"]),
    .library(name: "StatecraftExploration", targets: ["StatecraftExploration"]),
    // NB: TCA's macro spellings, opt in: the one product that builds swift-syntax.
    .library(name: "StatecraftMacros", targets: ["StatecraftMacros"]),
  ],
  dependencies: [
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    // NB: the Inspector's server only: the core products don't depend on it.
    .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.3"),
    // NB: with its default traits, as a user's app depends on it: SwiftPM fails to resolve a
    // graph where one package enables a dependency's trait and another leaves it off, so a
    // narrower trait list here breaks the graph of every app that also depends on
    // swift-dependencies (`.ci/check-user-package` builds such an app). Only the `Dependencies`
    // product is used, whose graph has no swift-syntax (its macros are a product of their own).
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    // NB: a command plugin only (`swift package generate-documentation`): it is not in any
    // product's build graph.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // NB: StatecraftMacros' plugin and its tests only; the core products never build it.
    .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.6.0"),
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    .target(
      name: "Statecraft",
      dependencies: [
        .product(name: "CasePathsCore", package: "swift-case-paths"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      // NB: the privacy manifest an App Store build needs: the required-reason APIs Statecraft
      // uses (UserDefaults for `.appStorage`, file timestamps for `.fileStorage`).
      resources: [.copy("PrivacyInfo.xcprivacy")]
    ),
    .target(
      name: "StatecraftTesting",
      dependencies: [
        "Statecraft",
        .product(name: "CasePathsCore", package: "swift-case-paths"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        // NB: what makes a reported issue fail the test that reported it. Without it in the test
        // process, IssueReporting only prints "An issue was recorded without linking the Testing
        // framework" on Linux, and the test passes. A test target that depends on this product
        // gets it, and needs nothing else (`.ci/check-user-package` checks it, outside this
        // package).
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    // NB: writes tests from recorded sessions; no product of the core depends on it.
    .target(
      name: "StatecraftTestGenerator",
      dependencies: ["Statecraft"]
    ),
    // NB: explores features for tests; no product of the core depends on it.
    .target(
      name: "StatecraftExploration",
      dependencies: [
        "Statecraft",
        "StatecraftTestGenerator",
        "StatecraftTesting",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        // NB: as StatecraftTesting: a failure exploration reports fails the test.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    .target(
      name: "StatecraftCombine",
      dependencies: [
        "Statecraft",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        // NB: Combine on Apple platforms, OpenCombine elsewhere.
        .product(
          name: "OpenCombine", package: "OpenCombine",
          condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])),
      ]
    ),
    // NB: a product of its own, so that the core's build graph holds no server code.
    .target(
      name: "StatecraftInspector",
      dependencies: [
        "Statecraft",
        .product(name: "CasePathsCore", package: "swift-case-paths"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ]
    ),

    // NB: the macros' declarations; they expand in StatecraftMacrosPlugin.
    .target(
      name: "StatecraftMacros",
      dependencies: [
        "Statecraft",
        "StatecraftMacrosPlugin",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
      ]
    ),
    .macro(
      name: "StatecraftMacrosPlugin",
      dependencies: [
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
      ]
    ),

    // MARK: - Demos: terminal apps, not products. Feature logic lives in library targets that
    // the tests import; the executables only read the terminal and draw.

    // NB: the wide-character ncurses, for DemoTerminal only: the feature libraries don't
    // depend on it. `.ci/run` installs libncurses-dev where it is missing.
    .systemLibrary(
      name: "CNcursesw",
      path: "Examples/CNcursesw",
      providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
    ),
    .target(
      name: "DemoTerminal",
      dependencies: [
        "CNcursesw", "Statecraft", "StatecraftInspector",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/DemoTerminal"
    ),
    .target(
      name: "TodosFeature",
      dependencies: [
        "Statecraft",
        .product(name: "CasePathsCore", package: "swift-case-paths"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
      ],
      path: "Examples/TodosFeature"
    ),
    .executableTarget(
      name: "todos",
      dependencies: [
        "DemoTerminal", "Statecraft", "StatecraftInspector", "StatecraftTestGenerator",
        "TodosFeature",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "CasePathsCore", package: "swift-case-paths"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "Examples/Todos"
    ),
    .target(
      name: "CounterFeature",
      dependencies: ["Statecraft"],
      path: "Examples/CounterFeature"
    ),
    .executableTarget(
      name: "counter",
      dependencies: [
        "CounterFeature", "DemoTerminal", "Statecraft", "StatecraftInspector",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/Counter"
    ),
    .target(
      name: "PagingFeature",
      dependencies: ["Statecraft"],
      path: "Examples/PagingFeature"
    ),
    .executableTarget(
      name: "paging",
      dependencies: [
        "DemoTerminal", "PagingFeature", "Statecraft", "StatecraftInspector",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/Paging"
    ),
    // NB: a feature written as a TCA team writes one (`@Reducer` structs and enums,
    // `@ObservableState`, closure-less `ifLet` and `forEach`), on StatecraftMacros; its tests
    // are in StatecraftTests. No terminal front end.
    .target(
      name: "ReadingListFeature",
      dependencies: ["StatecraftMacros"],
      path: "Examples/ReadingListFeature"
    ),
    .testTarget(
      name: "StatecraftTests",
      dependencies: [
        // NB: the demos' features are tested here, in the one test target, because the main
        // serial executor that makes the tests deterministic is process-wide: suites in a second
        // target would run beside `Engine`'s and break that.
        "CounterFeature",
        "DemoTerminal",
        "PagingFeature",
        "ReadingListFeature",
        "Statecraft",
        "StatecraftTesting",
        "StatecraftCombine",
        "StatecraftExploration",
        "StatecraftInspector",
        "StatecraftTestGenerator",
        "StatecraftMacrosPlugin",
        "TodosFeature",
        // NB: the demos' executables, whose screens the tests draw from every state that
        // exploration reaches (`@testable import todos`).
        "counter",
        "paging",
        "todos",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
        // NB: the `@CasePathable` macro, in the tests only: it builds swift-syntax, which no
        // product's build graph may (`.ci/run` checks the core products'). The tests show that
        // case key paths the macro writes work where hand-written ones do.
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
        .product(name: "NIOCore", package: "swift-nio"),
        // NB: `EmbeddedChannel`, whose clock the Inspector's deadline tests move.
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        // NB: `WebSocketFrame`, which the Inspector's scale tests read from an `EmbeddedChannel`.
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
