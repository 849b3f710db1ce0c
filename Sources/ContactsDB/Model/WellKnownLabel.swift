/// The labels the engine knows; any other non-empty label is kept as given.
public enum WellKnownLabel: String, CaseIterable, Sendable {
    case mobile, home, work, main, other
}
