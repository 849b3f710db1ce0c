import Foundation
import PackagePlugin

/// Feeds every file of `Schema/` and `Seeds/` to the `EmbedResources` tool,
/// which writes them into one Swift source of the target being built.
@main
struct EmbedResourcesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folders = ["Schema", "Seeds"].map { context.package.directoryURL.appending(path: $0) }
        let inputs = try folders.flatMap { folder in
            try FileManager.default
                .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { !$0.lastPathComponent.hasPrefix(".") }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding Schema/ and Seeds/",
                executable: try context.tool(named: "EmbedResources").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
