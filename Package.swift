// swift-tools-version: 6.0
import PackageDescription

// Fuzz/run.sh sets CONTACTSDB_FUZZ to the path of libFuzzer's archive
// without `main` (SwiftPM names an executable's entry point itself, so the
// fuzz targets start libFuzzer's driver from theirs). The instrumentation
// goes to the library and those targets only: `-Xswiftc -sanitize=fuzzer`
// would also reach EmbedResources, whose `main` clashes with libFuzzer's.
let libFuzzer = Context.environment["CONTACTSDB_FUZZ"]
let fuzzerSettings: [SwiftSetting] = libFuzzer == nil ? [] : [.unsafeFlags(["-sanitize=fuzzer"]), .define("FUZZING")]
let fuzzerLinking: [LinkerSetting] = libFuzzer.map { [.unsafeFlags([$0]), .linkedLibrary("stdc++")] } ?? []

func fuzzTarget(_ name: String) -> Target {
    .executableTarget(name: name, dependencies: ["ContactsDBFuzzing"], path: "Fuzz/\(name)",
                      swiftSettings: fuzzerSettings, linkerSettings: fuzzerLinking)
}

// The executables allocate through jemalloc (Debian's libjemalloc-dev): an
// import makes and frees millions of small strings and arrays on several
// threads, and glibc's malloc and free took a twelfth of its instructions.
// The library leaves the allocator to its host, as it does SQLite's settings.
let allocator: [LinkerSetting] = [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]

// libphonenumber and the protobuf and Abseil under it come in from their
// static archives (Debian ships them): as shared libraries they made every
// process bind some 2,700 symbols at its start (libprotobuf's alone 2,338,
// by LD_DEBUG=bindings), a third of a `query`'s processor time. Each
// archive comes before those it calls; ICU and zlib stay shared.
let phoneNumberLibraries: [LinkerSetting] =
    (["phonenumber", "protobuf"] + ["raw_hash_set", "hash", "city", "low_level_hash", "strings", "strings_internal",
                                   "throw_delegate", "raw_logging_internal"].map { "absl_" + $0 })
        .map { .linkedLibrary(":lib\($0).a") }
    + [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("z")]

let package = Package(
    name: "contactsdb",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ContactsDB", targets: ["ContactsDB"]),
        .library(name: "ContactsDBSync", targets: ["ContactsDBSync"]),
        .executable(name: "contactsdb", targets: ["ContactsDBTool"]),
        .executable(name: "contactsdb-sync", targets: ["ContactsDBSyncTool"]),
        .executable(name: "contactsdb-serve", targets: ["ContactsDBServeTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The web app's HTTP server (`contactsdb serve`).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's logger, set quiet: standard output is the address.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        // `swift package generate-documentation` for the DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "ContactsDB",
            dependencies: [
                "CICU",
                "CPhoneNumber",
                "CVips",
                "CGLib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: fuzzerSettings,
            plugins: ["EmbedResourcesPlugin"]
        ),
        // CardDAV sync: discovery, the DAV client, the session. The only
        // target that links the network stack (SwiftNIO, TLS, the HTTP
        // client); it reaches the core through `package` declarations.
        .target(
            name: "ContactsDBSync",
            dependencies: [
                "ContactsDB",
                "CLibXML2",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: fuzzerSettings
        ),
        // The web app of `contactsdb serve`: JSON endpoints over the
        // library and the page, compiled in. Linked into `contactsdb-serve`
        // alone, as sync's network stack is into `contactsdb-sync`.
        .target(
            name: "ContactsDBServer",
            dependencies: [
                "ContactsDB",
                "ContactsDBSync",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The page's modules are listed in `Page.modules` too.
            resources: [
                .embedInCode("Page/index.html"),
                .embedInCode("Page/app.css"),
            ] + ["app", "shared", "helpers", "list", "contact", "form", "duplicates", "sheets"].map {
                .embedInCode("Page/\($0).js")
            }
        ),
        // Generated contacts for `generate`, `bench` and the tests.
        .target(name: "ContactsDBSynthetic", dependencies: ["ContactsDB"]),
        // What the fuzz targets run on each input, and libFuzzer's driver.
        .target(name: "ContactsDBFuzzing", dependencies: ["ContactsDB", "ContactsDBSync"], swiftSettings: fuzzerSettings),
        // ICU (Debian's libicu-dev): the root collator and AlphabeticIndex,
        // behind a C face because AlphabeticIndex is C++ only.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),
        // libphonenumber (Debian's libphonenumber-dev): parsing, validity and
        // every display form of phone numbers, behind a C face like ICU's.
        .target(name: "CPhoneNumber", linkerSettings: phoneNumberLibraries),
        // libvips (Debian's libvips-dev): contact photos' types, sizes and
        // thumbnails, behind a C face in plain C types. The shim opens
        // libvips on the first photo rather than linking it, as its hundred
        // libraries would slow every process's start. Its headers need
        // GLib's, whose paths only pkg-config knows: the system library
        // target carries them to the shim (and links GLib alone).
        .target(name: "CVips", dependencies: ["CVipsSystem"]),
        .systemLibrary(name: "CVipsSystem", pkgConfig: "glib-2.0", providers: [.apt(["libvips-dev"])]),
        // GLib (a dependency of libvips, linked already): SHA-256 for
        // migration checksums, at build time too, and card file names.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // SQLite's process-wide settings, which only a C caller can make
        // (Debian's libsqlite3-dev, which GRDB links too).
        .target(name: "CSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // libxml2 (Debian's libxml2-dev): the XML of CardDAV answers.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // Every command of `contactsdb`. `remote add` and `sync` reach the
        // network through ``RemoteAccess``, which `contactsdb-sync` alone
        // provides: `contactsdb` hands those two commands over to it.
        .target(
            name: "ContactsDBCLI",
            dependencies: [
                "ContactsDB",
                "ContactsDBSynthetic",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "ContactsDBBench",
                "CSQLiteSettings",
            ]
        ),
        // `bench`'s measures and its hand-written twins of the engine's
        // queries and import, on the raw C and C++ APIs, which no other
        // target of the command reaches.
        .target(
            name: "ContactsDBBench",
            dependencies: [
                "ContactsDB",
                "ContactsDBSynthetic",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CPhoneNumber",
            ]
        ),
        // Both executables allocate through jemalloc (`allocator` above).
        .executableTarget(
            name: "ContactsDBTool", dependencies: ["ContactsDBCLI"], path: "Sources/contactsdb", linkerSettings: allocator),
        .executableTarget(
            name: "ContactsDBSyncTool", dependencies: ["ContactsDBCLI", "ContactsDBSync"], path: "Sources/contactsdb-sync",
            linkerSettings: allocator),
        .executableTarget(
            name: "ContactsDBServeTool", dependencies: ["ContactsDBCLI", "ContactsDBServer"], path: "Sources/contactsdb-serve",
            linkerSettings: allocator),
        // Compiles Schema/*.sql and Seeds/*.json into the library, so that a
        // `contactsdb` binary copied alone still knows its migrations and seed.
        .executableTarget(name: "EmbedResources", dependencies: ["CGLib"]),
        .plugin(
            name: "EmbedResourcesPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedResources"]
        ),
        // libFuzzer targets under Fuzz/run.sh; replayers of their inputs otherwise.
        fuzzTarget("FuzzJSON"),
        fuzzTarget("FuzzVCard"),
        fuzzTarget("FuzzCSV"),
        fuzzTarget("FuzzMigrations"),
        fuzzTarget("FuzzDAV"),
        .target(name: "ContactsDBTestSupport", path: "Tests/ContactsDBTestSupport"),
        .testTarget(
            name: "ContactsDBTests",
            // CVips names the formats of the photo tests' sample images; ICU
            // itself is the oracle of the search keys' property test.
            dependencies: ["ContactsDB", "ContactsDBSync", "ContactsDBSynthetic", "ContactsDBFuzzing", "ContactsDBTestSupport", "CVips",
                           "CICU"]
        ),
        .testTarget(
            name: "ContactsDBCLITests",
            dependencies: ["ContactsDBCLI", "ContactsDBBench", "ContactsDB", "ContactsDBSynthetic", "ContactsDBTestSupport", "CVips"]
        ),
        // The web app's routes, answered in-process by the real router over
        // a real store (HummingbirdTesting's `.router`), with no socket.
        .testTarget(
            name: "ContactsDBServerTests",
            dependencies: [
                "ContactsDBServer",
                "ContactsDB",
                "ContactsDBTestSupport",
                "CVips",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
