import ContactsDB
import Foundation
import Hummingbird

/// The birthday calendar: the feed calendar apps subscribe to, opened by
/// its own token in the path (they send no cookie), and the upcoming
/// days the page shows.
struct CalendarController: Sendable {
    let store: ContactStore

    /// Where ``AccessGuard`` lets a request through without the app's
    /// cookie, for the feed's route to check the feed token itself.
    static let feedPrefix = "/calendar/"

    func addRoutes(to group: RouterGroup<some RequestContext>) {
        group.get(RouterPath(stringLiteral: Self.feedPrefix + ":token/" + BirthdayCalendar.feedFile), use: feed)
            .get("/api/birthdays", use: birthdays)
    }

    /// The days of the next `within` days (30 unless given, at most 366).
    @Sendable func birthdays(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, within) = (store, min(366, max(0, request.uri.queryParameters.get("within", as: Int.self) ?? 30)))
        return try await Answer.json { try encode(try store.upcomingDates(from: .today(), within: within)) }
    }

    /// The calendar, or a bare 404 for any token but the feed's own (a
    /// wrong or replaced one learns nothing).
    @Sendable func feed(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, given, books) = (store, context.parameters.get("token") ?? "", request.uri.queryParameters.getAll("book"))
        let result = await Answer.offServerThreads { () -> BirthdayCalendar? in
            guard SignIn.same(given, try store.calendarFeedToken()) else { return nil }
            return try store.birthdayCalendar(inBooks: books.isEmpty ? nil : books)
        }
        switch result {
        case .success(let calendar?):
            return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: calendar.text)))
        case .success(nil):
            return Response(status: .notFound)
        case .failure(let error):
            let answer = ErrorAnswer(error)
            return Response(status: answer.status, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: answer.error + "\n")))
        }
    }
}
