import ContactsDB
import Foundation

extension Fuzzing {
    /// The `main` of a fuzz target. Built by Fuzz/run.sh (FUZZING, with
    /// libFuzzer linked in), it hands control to libFuzzer, which calls
    /// `target` with each input. A normal build makes a replayer instead:
    /// it runs the files named on the command line through `target` and
    /// prints each outcome.
    package static func run(_ target: @escaping (Data) -> String) throws -> Never {
        #if FUZZING
        Fuzzing.target = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { start, count in
            _ = Fuzzing.target?(start.map { Data(bytes: $0, count: count) } ?? Data())
            return 0
        })
        #else
        for path in CommandLine.arguments.dropFirst() {
            print(path, target(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        exit(0)
        #endif
    }

    #if FUZZING
    /// libFuzzer's callback is a C function, so it finds the target here.
    nonisolated(unsafe) private static var target: ((Data) -> String)?
    #endif
}

#if FUZZING
/// SwiftPM names an executable's entry point itself, so libFuzzer's `main`
/// cannot be used; its driver is started from the target's `main` instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
