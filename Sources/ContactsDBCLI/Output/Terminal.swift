import Foundation

/// Writing to the terminal: stdout for results, stderr for the rest.
enum Terminal {
    static func printError(_ message: String) {
        writeStandardError("Error: \(message)\n")
    }

    /// A line about what happened besides the command's result.
    static func printNotice(_ message: String) {
        writeStandardError("\(message)\n")
    }

    /// Writes to stderr, control characters shown on a terminal unless
    /// `drawing` (the progress bar's own CR). A failure there has nowhere
    /// left to be reported, so it is ignored (FileHandle's `write` would
    /// trap instead).
    static func writeStandardError(_ text: String, drawing: Bool = false) {
        var text = isStandardErrorATerminal && !drawing ? visible(text) : text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var written = 0
            while written < bytes.count {
                let result = write(STDERR_FILENO, base + written, bytes.count - written)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return }
                written += result
            }
        }
    }

    static var isStandardErrorATerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The text with its control characters shown as symbols, for a
    /// terminal, which would obey them: a name imported with `ESC[2J` or
    /// an OSC 52 sequence must not clear the screen or fill the clipboard.
    /// C0 controls and DEL become their Control Pictures (`␛`, `␇`, `␡`),
    /// C1 controls `�`; each takes one column, as the character it stands
    /// for was counted. Line feeds, tabs and CR LF, which the output's own
    /// layout uses, stay.
    static func visible(_ text: String) -> String {
        // Most text holds no control byte (a C1 control is 0xC2 0x80–0x9F).
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 || $0 == 0x7F || $0 == 0xC2 }) else {
            return text
        }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator(), pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar.value {
            case 0x0A, 0x09: result.append(scalar)
            case 0x0D where pending == "\n": result.append(scalar)
            case 0x00..<0x20: result.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: result.append("\u{2421}")
            case 0x80..<0xA0: result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Columns a string takes on a terminal: East Asian wide characters
    /// (Hangul, Han, kana, full-width forms) take two.
    static func width(_ text: String) -> Int {
        // Most cells are ASCII, one column a byte.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.unicodeScalars.reduce(0) { total, scalar in
            switch scalar.value {
            case 0x0300...0x036F, 0x200B...0x200F: return total
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
                 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
                return total + 2
            default: return total + 1
            }
        }
    }

    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - Self.width(text)))
    }

    /// A progress bar on stderr, drawn only when stderr is a terminal and
    /// redrawn only when its percentage changes.
    final class ProgressBar {
        private var lastPercent = -1
        private let label: String
        /// What is counted, shown as "N of TOTAL UNIT" where the count is
        /// one a person reads (a sync's cards; an import counts bytes).
        private let unit: String?
        /// Asked once: an import reports each contact.
        private let isShown = Terminal.isStandardErrorATerminal

        init(label: String, counting unit: String? = nil) { (self.label, self.unit) = (label, unit) }

        func update(done: Int, total: Int) {
            guard isShown, total > 0 else { return }
            let percent = min(100, done * 100 / total)
            guard percent != lastPercent else { return }
            lastPercent = percent
            let filled = percent * 30 / 100
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
            let counted = unit.map { " \(done) of \(total) \($0)" } ?? ""
            Terminal.writeStandardError("\r\(label) [\(bar)] \(percent)%\(counted)", drawing: true)
        }

        func finish() {
            if lastPercent >= 0 { Terminal.writeStandardError("\n") }
        }
    }
}
