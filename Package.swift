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
    .executableTarget(name: name, dependencies: ["ContactsDB"], path: "Fuzz/\(name)",
                      swiftSettings: fuzzerSettings, linkerSettings: fuzzerLinking)
}

let package = Package(
    name: "contactsdb",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ContactsDB", targets: ["ContactsDB"]),
        .executable(name: "contactsdb", targets: ["ContactsDBCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .target(
            name: "ContactsDB",
            dependencies: [
                "CICU",
                "CPhoneNumber",
                "CVips",
                "CLibXML2",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: fuzzerSettings,
            plugins: ["EmbedResourcesPlugin"]
        ),
        // ICU (Debian's libicu-dev): the root collator and AlphabeticIndex,
        // behind a C face because AlphabeticIndex is C++ only.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),
        // libphonenumber (Debian's libphonenumber-dev): parsing, validity and
        // every display form of phone numbers, behind a C face like ICU's.
        .target(name: "CPhoneNumber", linkerSettings: [.linkedLibrary("phonenumber")]),
        // libvips (Debian's libvips-dev): contact photos' types, sizes and
        // thumbnails, behind a C face in plain C types. The shim opens
        // libvips on the first photo rather than linking it, as its hundred
        // libraries would slow every process's start. Its headers need
        // GLib's, whose paths only pkg-config knows: the system library
        // target carries them to the shim (and links GLib alone).
        .target(name: "CVips", dependencies: ["CVipsSystem"]),
        .systemLibrary(name: "CVipsSystem", pkgConfig: "glib-2.0", providers: [.apt(["libvips-dev"])]),
        // libxml2 (Debian's libxml2-dev): the XML of CardDAV answers.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .executableTarget(
            name: "ContactsDBCLI",
            dependencies: [
                "ContactsDB",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The raw C API, for `bench`'s hand-written comparison queries.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Compiles Schema/*.sql and Seeds/*.json into the library, so that a
        // `contactsdb` binary copied alone still knows its migrations and seed.
        .executableTarget(name: "EmbedResources"),
        .plugin(
            name: "EmbedResourcesPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedResources"]
        ),
        // libFuzzer targets under Fuzz/run.sh; replayers of their inputs otherwise.
        fuzzTarget("FuzzJSON"),
        fuzzTarget("FuzzVCard"),
        fuzzTarget("FuzzMigrations"),
        fuzzTarget("FuzzDAV"),
        .target(name: "ContactsDBTestSupport", path: "Tests/ContactsDBTestSupport"),
        .testTarget(
            name: "ContactsDBTests",
            // CVips names the formats of the photo tests' sample images.
            dependencies: ["ContactsDB", "ContactsDBTestSupport", "CVips"]
        ),
        .testTarget(
            name: "ContactsDBCLITests",
            dependencies: ["ContactsDBCLI", "ContactsDB", "ContactsDBTestSupport", "CVips"]
        ),
    ]
)
