import ArgumentParser
import ContactsDB

/// `--workers N`: how many threads validate and derive contacts coming in,
/// offered by the commands that take contacts in (`import`, `sync`).
struct WorkerOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Threads that validate and derive contacts coming in, by import or sync, beside the reading and the writing one, and that help sort the indexes a large import builds (default: the cores this process may run on, less one).",
        valueName: "count"))
    var workers: Int?

    func validate() throws {
        if let workers, workers < 1 { throw ValidationError("Please give --workers as 1 or more.") }
    }

    func apply(to options: inout ContactStore.Options) {
        if let workers { options.workers = workers }
    }
}
