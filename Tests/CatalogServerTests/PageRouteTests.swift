import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import CatalogServer

@Suite struct PageRouteTests {
    @Test(arguments: [
        ("/", "text/html; charset=utf-8", "<script src=\"/app.js\" defer></script>"),
        ("/app.css", "text/css; charset=utf-8", "prefers-color-scheme: dark"),
        ("/app.js", "text/javascript; charset=utf-8", "new EventSource("),
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

    @Test func thePageLoadsNothingFromOtherServers() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            for path in ["/", "/app.css", "/app.js"] {
                let text = try await client.execute(uri: path, method: .get).text
                #expect(!text.contains("//cdn"), "\(path)")
                #expect(!text.contains("src=\"http"), "\(path)")
                #expect(!text.contains("@import"), "\(path)")
            }
        }
    }
}
