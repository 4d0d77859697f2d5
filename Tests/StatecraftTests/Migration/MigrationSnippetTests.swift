import Foundation
import Testing

/// The migration guides show their "after" code as it is compiled and run by the tests in this
/// folder: each region between `// docs:begin <Article>` and `// docs:end` must appear, as it is
/// (less its indentation), as a Swift code block of that article.
extension Engine {
  @MainActor
  @Suite struct MigrationSnippetTests {
    nonisolated static let guides = [
      "MigratingFromAsyncReactorKit": "AsyncReactorKitMigrationTests.swift",
      "MigratingFromSwiftUIAsyncFeedback": "SwiftUIAsyncFeedbackMigrationTests.swift",
      "MigratingFromGoodReactor": "GoodReactorMigrationTests.swift",
      "MigratingFromAsyncReactor": "AsyncReactorMigrationTests.swift",
      "MigratingFromReducerKit": "ReducerKitMigrationTests.swift",
      "MigratingFromTCA": "TCAMigrationTests.swift",
      "MigratingFromReactorKit": "ReactorKitMigrationTests.swift",
    ]

    /// Test files beyond the first whose marked code an article shows too.
    nonisolated static let moreTestFiles = [
      "MigratingFromTCA": ["TCAMigrationSpellingTests.swift"]
    ]

    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let articlesFolder = testsFolder.appending(
      path: "../../../Sources/Statecraft/Statecraft.docc/Articles/Migrating")

    @Test(arguments: guides.sorted(by: { $0.key < $1.key }))
    func theArticleShowsTheTestedCode(article: String, testFile: String) throws {
      let text = try String(
        contentsOf: Self.articlesFolder.appending(path: "\(article).md"), encoding: .utf8)
      for file in [testFile] + (Self.moreTestFiles[article] ?? []) {
        let source = try String(
          contentsOf: Self.testsFolder.appending(path: file), encoding: .utf8)
        let snippets = Self.snippets(in: source, for: article)
        #expect(!snippets.isEmpty, "\(file) marks no code for \(article)")
        expect(text, article: article, shows: snippets)
      }
    }

    func expect(_ text: String, article: String, shows snippets: [String]) {
      for snippet in snippets {
        #expect(
          text.contains("```swift\n\(snippet)\n```"),
          "\(article).md does not show this tested code as it is:\n\(snippet)")
      }
    }

    @Test func everyMigrationArticleIsChecked() throws {
      let articles = try FileManager.default.contentsOfDirectory(atPath: Self.articlesFolder.path)
        .filter { $0.hasSuffix(".md") }
        .map { String($0.dropLast(3)) }
      #expect(Set(articles) == Set(Self.guides.keys))
    }

    /// The regions of `source` marked for `article`, each without its common indentation.
    static func snippets(in source: String, for article: String) -> [String] {
      var snippets: [String] = []
      var current: [Substring]?
      for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.drop(while: { $0 == " " })
        if trimmed == "// docs:begin \(article)" {
          current = []
        } else if trimmed == "// docs:end", let lines = current {
          let indent =
            lines.filter { !$0.isEmpty }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
          snippets.append(lines.map { $0.dropFirst(indent) }.joined(separator: "\n"))
          current = nil
        } else {
          current?.append(line)
        }
      }
      return snippets
    }
  }
}
