import ProductCatalogPostgres
import Testing

@Suite struct PostgresLocationTests {
    @Test func aFullURLGivesEveryPart() throws {
        let location = try PostgresLocation(url: "postgres://shop:s3cret@db.internal:6543/catalog?schema=eu&sslmode=require", environment: [:])
        #expect(location.host == "db.internal")
        #expect(location.port == 6543)
        #expect(location.user == "shop")
        #expect(location.password == "s3cret")
        #expect(location.database == "catalog")
        #expect(location.schema == "eu")
        #expect(location.sslMode == "require")
        #expect(location.socketPath == nil)
        #expect(location.description == "postgres://shop@db.internal:6543/catalog?schema=eu")
        #expect(!location.description.contains("s3cret"))
    }

    @Test func whatTheURLLeavesOutComesFromTheEnvironment() throws {
        let environment = ["PGHOST": "/tmp/sockets", "PGPORT": "5433", "PGUSER": "ci", "PGPASSWORD": "pw", "PGDATABASE": "shop"]
        let location = try PostgresLocation(url: "postgresql://", environment: environment)
        #expect(location.host == "/tmp/sockets")
        #expect(location.socketPath == "/tmp/sockets/.s.PGSQL.5433")
        #expect(location.user == "ci")
        #expect(location.password == "pw")
        #expect(location.database == "shop")
        #expect(location.schema == "public")
        #expect(location.sslMode == "disable")
        // The URL wins over the environment.
        let given = try PostgresLocation(url: "postgres://other@127.0.0.1/books", environment: environment)
        #expect(given.host == "127.0.0.1" && given.user == "other" && given.database == "books" && given.port == 5433)
        #expect(given.sslMode == "prefer")
    }

    @Test func theDatabaseDefaultsToTheUsersName() throws {
        let location = try PostgresLocation(url: "postgres://ann@localhost", environment: [:])
        #expect(location.database == "ann")
        #expect(location.port == 5432)
    }

    @Test func aWrongURLSaysWhatIsWrong() {
        #expect(PostgresLocation.isURL("postgres://x") && PostgresLocation.isURL("postgresql://x"))
        #expect(!PostgresLocation.isURL("catalog.sqlite") && !PostgresLocation.isURL("http://x"))
        #expect(throws: PostgresCatalogError.self) { try PostgresLocation(url: "mysql://x/y", environment: [:]) }
        do {
            _ = try PostgresLocation(url: "postgres://u:pw@h/db?colour=blue", environment: [:])
            Issue.record("an unknown setting was accepted")
        } catch {
            #expect(error.description.contains("colour"))
            #expect(!error.description.contains("pw@"))
        }
        #expect(throws: PostgresCatalogError.self) { try PostgresLocation(url: "postgres://h/db?sslmode=sometimes", environment: [:]) }
        #expect(throws: PostgresCatalogError.self) { try PostgresLocation(url: "postgres://h:0/db", environment: [:]) }
    }
}
