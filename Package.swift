// swift-tools-version: 6.2
import PackageDescription
#if canImport(Glibc)
import Glibc

/// Packed relative relocations (DT_RELR) need the loader of glibc 2.36 (Debian 12, Ubuntu 24.04).
let loaderReadsPackedRelocations: Bool = {
    var name = [CChar](repeating: 0, count: 64) // "glibc 2.36"
    guard confstr(Int32(_CS_GNU_LIBC_VERSION), &name, name.count) > 0 else { return false }
    let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let version = text.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    return version.count >= 2 && (version[0], version[1]) >= (2, 36)
}()
#else
let loaderReadsPackedRelocations = false
#endif

// Our own targets treat every warning as an error: "zero warnings" is enforced by the build,
// not by a reviewer's eyes.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

// The release `roster` is linked to stay small in memory (docs/benchmarks.md, "Memory"). The
// kernel maps code 64 KB at a time around each first touch, so what a session runs should lie
// together: the Swift runtime and Foundation are linked statically (only their used parts, not
// two dozen whole shared libraries), and lld places the functions of Config/roster.order
// (`make order-file`) first and the unnamed helpers Swift emits beside them
// (Config/roster-text.ld). `make` compiles release builds with a section a function
// (RELEASE_FLAGS in the Makefile), which that placing needs. The executable exports no
// symbols (nothing loads it as a library; a 57,000-symbol export table is searched at every
// start), and its relative relocations are packed where the loader reads them (glibc 2.36).
let leanReleaseLink: [LinkerSetting] = [
    .unsafeFlags([
        "-static-stdlib", "-use-ld=lld",
        // Foundation's static parts that its own objects name but the driver does not add.
        "-lCoreFoundation", "-l_FoundationCShims", "-l_FoundationCollections", "-l_FoundationICU",
        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Config/roster.order",
        "-Xlinker", "--no-warn-symbol-ordering",
        "-Xlinker", "-T", "-Xlinker", "\(Context.packageDirectory)/Config/roster-text.ld",
        "-Xlinker", "--no-export-dynamic",
    ] + (loaderReadsPackedRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : []),
    .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "Roster",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "roster", targets: ["roster"]),
        .executable(name: "roster-server", targets: ["roster-server"]),
        .library(name: "RosterKit", targets: ["RosterKit"]),
        .library(name: "RosterServer", targets: ["RosterServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Already in the graph through Hummingbird; named here because RosterServer uses them
        // directly (the bound port of a `Channel`, `ServiceGroup` for graceful shutdown).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        // RosterKit's one HTTP stack, for http and https (TLS, HTTP/2, proxies, pooling).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // The PostgreSQL backend, for replicas: an async driver, so queries never hold a thread.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // SHA-256 of stored token secrets; already in the graph through postgres-nio.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3" ..< "5.0.0"),
        // Property tests (Swift Testing): generators, seeds to replay a failure, shrinking.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // tokenCommand and passwordCommand (RosterKit's TokenCommand). Without its default
        // SubprocessFoundation trait: it needs no Foundation, and `roster` is shedding the full one.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
    ],
    targets: [
        // ncursesw; shim.h wraps the macros and globals Swift cannot import. No `pkgConfig:`
        // here: pkg-config's only flags for ncursesw are -D defines, which SwiftPM drops with a
        // warning; shim.h defines what is needed itself. `make deps` checks pkg-config instead.
        .systemLibrary(
            name: "CNCursesW",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        // OpenLDAP's libldap (its headers from Debian's libldap-dev, installed by `make deps`): the
        // LDAP directory's protocol, never a BER codec of our own. Loaded at the first LDAP
        // connection, not linked (Sources/CLDAP/libldap.c says why).
        .target(name: "CLDAP"),
        // Signal and crash handling that must be C (async-signal-safe): forwards signals to
        // the app through a pipe and restores the terminal on a crash.
        .target(name: "CTerminalGuard"),
        // The network core: wire models, endpoints, API client, repository. No UI, no server.
        .target(
            name: "RosterKit",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                // NIOLockedValueBox: the one lock (docs/design.md, "One lock").
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            swiftSettings: strict
        ),
        // The LDAP dialect of the directory seam over OpenLDAP's libldap. Its own target so that
        // only `roster` links libldap and its libraries: linked into roster-server (through
        // RosterKit) they cost its hot path 7 to 10% of its requests a second (docs/benchmarks.md).
        .target(
            name: "RosterLDAP",
            dependencies: [
                "RosterKit", "CLDAP", .product(name: "Logging", package: "swift-log"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // Test doubles shared by the test targets of every layer (scripted transport,
        // in-memory repository, manual clock).
        .target(
            name: "RosterKitTestSupport",
            dependencies: [
                "RosterKit", "RosterLDAP", .product(name: "Logging", package: "swift-log"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // A TLS listener for the transport's tests.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        // CSV in and out: columns, the RFC 4180 writer with formula neutralisation, reading
        // and validating an import file, the import report. Files, no UI, no main actor.
        .target(
            name: "RosterCSV",
            dependencies: ["RosterKit"],
            swiftSettings: strict
        ),
        // The change journal: every write Roster makes, in SQLite through GRDB, for undo and
        // `roster journal`. Storage only, no main actor.
        .target(
            name: "RosterJournal",
            dependencies: ["RosterKit", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        // @MainActor view models: pure Swift, no ncurses, no transport.
        .target(
            name: "RosterApp",
            dependencies: ["RosterKit", "RosterCSV", "RosterJournal"],
            swiftSettings: strict
        ),
        // The ncurses front end.
        .target(
            name: "RosterTUI",
            dependencies: ["RosterApp", "RosterKit", "RosterCSV", "CNCursesW", "CTerminalGuard"],
            swiftSettings: strict
        ),
        // The user API server as a library (Hummingbird + SQLite through GRDB, or PostgreSQL
        // through postgres-nio).
        .target(
            name: "RosterServer",
            dependencies: [
                "RosterKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTPS with HTTP/2 by ALPN (`--tls-cert`, `--tls-key`).
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for reading a stored JSON column in place (`StoredText`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // TLS settings of a postgres:// URL's sslmode.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // NIOThreadPool: long reads run on its threads, not the cooperative pool's.
                .product(name: "NIOPosix", package: "swift-nio"),
                // HTTPParserError, which `HTTPService` passes on as Hummingbird's own loop does.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            resources: [.copy("Resources/openapi.json")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "roster",
            dependencies: [
                "RosterTUI", "RosterApp", "RosterKit", "RosterLDAP", "RosterServer", "RosterCSV", "RosterJournal",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strict,
            linkerSettings: leanReleaseLink
        ),
        .executableTarget(
            name: "roster-server",
            dependencies: [
                "RosterServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // `make bench-server`'s client side: APIClient fetching pages one at a time; and
        // `make bench-review`'s: the access review beside two CSV exports.
        .executableTarget(
            name: "roster-bench",
            dependencies: ["RosterKit", "RosterKitTestSupport", "RosterApp", "RosterCSV", "RosterJournal",
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // `make fuzz`'s libFuzzer targets, one per parser that reads bytes from outside
        // (docs/testing.md). Built with -sanitize=fuzzer,address and -DFUZZING by `make fuzz`
        // only; an ordinary build makes a program that replays inputs through the same checks.
        .executableTarget(
            name: "roster-fuzz",
            dependencies: ["RosterServer", "RosterKit", "RosterCSV", "RosterTUI", "CNCursesW",
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            path: "Sources/FuzzTargets",
            swiftSettings: strict
        ),
        .testTarget(
            name: "RosterKitTests",
            dependencies: ["RosterKit", "RosterLDAP", "RosterKitTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RosterServerTests",
            dependencies: [
                "RosterServer", "RosterKit", "RosterKitTestSupport",
                // Roster's own bulk run against the server (the TLS rotation test).
                "RosterApp",
                // To break the database under a running server (the 500 test).
                .product(name: "GRDB", package: "GRDB.swift"),
                // The PostgreSQL client's configuration, read from --database URLs.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RosterAppTests",
            dependencies: ["RosterApp", "RosterJournal", "RosterKit", "RosterLDAP", "RosterKitTestSupport", "RosterServer",
                           .product(name: "PropertyBased", package: "swift-property-based"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        // CSV export and import: the format, the models, and both against the real server.
        .testTarget(
            name: "RosterCSVTests",
            dependencies: [
                "RosterCSV", "RosterApp", "RosterJournal", "RosterKit", "RosterKitTestSupport", "RosterServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RosterTUITests",
            dependencies: ["RosterTUI", "RosterApp", "RosterJournal", "RosterKit", "RosterKitTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RosterCommandTests",
            dependencies: ["roster", "RosterApp", "RosterJournal", "RosterKit", "RosterLDAP", "RosterKitTestSupport", "RosterServer",
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "RosterKit", "RosterCSV", "RosterKitTestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
    ]
)
