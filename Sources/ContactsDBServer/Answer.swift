import ContactsDB
import Dispatch
import Foundation
import Hummingbird

/// What every controller's handlers share: the store's work run off the
/// server's threads, one write at a time, and answered with its JSON or
/// its error's (``ErrorAnswer``).
enum Answer {
    /// Held by every write, so that a stop waits for the one under way and
    /// lets none start after it (``WebApp/run(port:ready:)``).
    static let writes = NSLock()
    /// The most bytes a request body may hold: a contact with its photo
    /// in base64, a third larger than the photo's limit.
    static let bodyLimit = 32 << 20

    /// Runs `body` off the server's threads, which the store would block;
    /// `writing`, under ``writes``.
    static func offServerThreads<T: Sendable>(
        writing: Bool = false, _ body: @escaping @Sendable () throws -> T
    ) async -> Result<T, Error> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                if writing { writes.lock() }
                defer { if writing { writes.unlock() } }
                continuation.resume(returning: Result { try body() })
            }
        }
    }

    /// Runs `body` off the server's threads and answers with its JSON or
    /// the error's.
    static func json(
        status: HTTPResponse.Status = .ok, writing: Bool = false, _ body: @escaping @Sendable () throws -> Data
    ) async throws -> Response {
        switch await offServerThreads(writing: writing, body) {
        case .success(let data): json(data, status: status)
        case .failure(let error): try self.error(error)
        }
    }

    /// `data`, a JSON text, as the answer.
    static func json(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The error as JSON, with the status of its kind.
    static func error(_ error: Error) throws -> Response {
        let answer = ErrorAnswer(error)
        return json(try encode(answer), status: answer.status)
    }
}

extension Request {
    /// The `id` parameter, which names the contact a route is about.
    ///
    /// - throws: a 400 when it is missing or empty.
    func contactID() throws -> String {
        guard let id = uri.queryParameters.get("id"), !id.isEmpty else { throw HTTPError(.badRequest, message: "Give the contact's id.") }
        return id
    }

    /// The `revision` parameter: a write made against it is refused once
    /// the contact has moved on.
    var revision: Int? { uri.queryParameters.get("revision", as: Int.self) }

    /// The whole body, up to ``Answer/bodyLimit``.
    func bodyBytes() async throws -> Data {
        Data((try await body.collect(upTo: Answer.bodyLimit)).readableBytesView)
    }
}

/// `value`'s JSON.
func encode(_ value: some Encodable) throws -> Data {
    try JSONEncoder().encode(value)
}
