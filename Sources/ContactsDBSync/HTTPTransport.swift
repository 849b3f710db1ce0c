import AsyncHTTPClient
import ContactsDB
import Foundation
import NIOCore
import NIOHTTP1

/// ``DAVTransport`` over the network, by AsyncHTTPClient: each request
/// given a deadline, each answer a size cap, and a server that cannot be
/// reached, stalls or answers too much said so as a ``ContactsDBError``.
final class HTTPTransport: DAVTransport {
    private let client: HTTPClient
    /// How long one request may take, from its start to its answer's last
    /// byte (a server that trickles a byte at a time is given up on too).
    private let timeout: TimeInterval

    /// Longest wait for a connection. The wait for an answer's next part
    /// is `timeout`'s: a busy server holding a large address book may think
    /// for longer than any shorter limit before its first byte.
    static let connectTimeout: TimeInterval = 30
    /// The most an answer may grow when decompressed.
    static let decompressionRatio = 100
    /// The largest answer read: a multiget of a hundred cards with 10 MB
    /// photos fits in a few of these.
    static let maximumAnswerBytes = 64 << 20

    init(timeout: TimeInterval) {
        let connect = TimeAmount.milliseconds(Int64(min(timeout, Self.connectTimeout) * 1000))
        let idle = TimeAmount.milliseconds(Int64(timeout * 1000))
        self.timeout = timeout
        var configuration = HTTPClient.Configuration(
            // Redirects are DAVClient's: the HTTP client's own would turn a
            // PROPFIND into a GET.
            redirectConfiguration: .disallow,
            timeout: .init(connect: connect, read: idle))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = DAVClient.concurrency
        // A refused connection fails the sync at once (69) instead of after
        // the connect timeout's retries; a sync resumes where it stopped.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .enabled(limit: .ratio(Self.decompressionRatio))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        try? client.syncShutdown()
    }

    func start(_ request: DAVRequest) -> DAVPending {
        let future = execute(request)
        let deadline = (date: Date().addingTimeInterval(timeout), timeout: timeout)
        return DAVPending { [self] in
            let response: HTTPClient.Response
            do {
                response = try future.wait()
            } catch let error as ContactsDBError {
                throw error
            } catch is ResponseAccumulator.ResponseTooBigError {
                throw ContactsDBError.remoteAnswerUnreadable(
                    url: request.url.absoluteString,
                    reason: "its answer was larger than \(Self.maximumAnswerBytes >> 20) MB, more than a sync reads")
            } catch where String(reflecting: type(of: error)).hasSuffix("DecompressionError") {
                throw ContactsDBError.remoteAnswerUnreadable(
                    url: request.url.absoluteString,
                    reason: "its compressed answer grew more than \(Self.decompressionRatio) times when decompressed, "
                        + "more than a sync reads")
            } catch {
                throw ContactsDBError.remoteUnavailable(url: request.url.absoluteString, reason: describe(error))
            }
            var answer = DAVResponse(url: request.url, status: Int(response.status.code), reason: response.status.reasonPhrase,
                                     headers: response.headers.map { ($0.name, $0.value) },
                                     body: response.body.map { Data($0.readableBytesView) } ?? Data())
            answer.deadline = deadline
            return answer
        }
    }

    // MARK: - Non public

    private func execute(_ request: DAVRequest) -> EventLoopFuture<HTTPClient.Response> {
        do {
            let request = try HTTPClient.Request(
                url: request.url.absoluteString, method: HTTPMethod(rawValue: request.method),
                headers: HTTPHeaders(request.headers), body: request.body.map { .string($0) })
            // An answer is held whole while it is read: its size is capped.
            return client.execute(request: request, delegate: ResponseAccumulator(request: request, maxBodySize: Self.maximumAnswerBytes),
                                  deadline: .now() + .milliseconds(Int64(timeout * 1000))).futureResult
        } catch {
            return client.eventLoopGroup.next().makeFailedFuture(error)
        }
    }

    /// What happened, naming the limit that ended it.
    private func describe(_ error: Error) -> String {
        let connect = Int(min(timeout, Self.connectTimeout))
        switch error as? HTTPClientError {
        case .deadlineExceeded?: return "its answer did not come whole within \(Int(timeout)) s (--timeout)"
        // A head trickled a byte at a time is no part of an answer yet.
        case .readTimeout?: return "no part of its answer (headers or body) came for \(Int(timeout)) s (--timeout)"
        case .connectTimeout?: return "it did not accept a connection within \(connect) s"
        default: break
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("refused") { return "the connection was refused" }
        // NIO's own connect timeout.
        if text.localizedCaseInsensitiveContains("timeout") { return "it did not accept a connection within \(connect) s" }
        return "it cannot be reached (\(text))"
    }
}
