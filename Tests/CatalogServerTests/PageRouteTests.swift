import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import CatalogServer

@Suite struct PageRouteTests {
    @Test(arguments: [
        ("/", "text/html; charset=utf-8", "<script type=\"module\" src=\"/app.js\"></script>"),
        ("/app.css", "text/css; charset=utf-8", "prefers-color-scheme: dark"),
        ("/app.js", "text/javascript; charset=utf-8", "from \"./list.js\""),
        ("/importer.js", "text/javascript; charset=utf-8", "new EventSource("),
        ("/outbox.js", "text/javascript; charset=utf-8", "indexedDB.open("),
    ])
    func thePageAndItsFilesAreServedFromTheBinary(path: String, type: String, content: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == type)
            #expect(response.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("default-src 'self'") == true)
            #expect(response.text.contains(content))
        }
    }

    /// Every module a served module imports is served too, from the page's own folder.
    @Test func everyImportedModuleIsServed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            var seen: Set<String> = []
            var queue = ["app.js"]
            while let name = queue.popLast() {
                guard seen.insert(name).inserted else { continue }
                let response = try await client.execute(uri: "/" + name, method: .get)
                #expect(response.status == .ok, "\(name)")
                for match in response.text.matches(of: /from "\.\/([a-z]+\.js)"/) { queue.append(String(match.1)) }
            }
            #expect(seen.count == PageController<BasicRequestContext>.scripts.count, "served but never imported: \(Set(PageController<BasicRequestContext>.scripts.map(\.0)).subtracting(seen))")
        }
    }

    @Test func thePageLoadsNothingFromOtherServers() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            for path in ["/", "/app.css"] + PageController<BasicRequestContext>.scripts.map({ "/" + $0.0 }) {
                let text = try await client.execute(uri: path, method: .get).text
                #expect(!text.contains("//cdn"), "\(path)")
                #expect(!text.contains("src=\"http"), "\(path)")
                #expect(!text.contains("@import"), "\(path)")
            }
        }
    }
}
