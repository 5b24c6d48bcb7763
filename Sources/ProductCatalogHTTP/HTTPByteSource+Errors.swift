import ProductCatalog
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPByteSource {
    /// Puts a failed download in words for ``HTTPBodyBuffer``, given the body bytes that arrived and the `Content-Length`.
    static func describeFailure(options: Options) -> @Sendable (_ error: any Error, _ received: Int, _ expected: Int?) -> String {
        { error, received, expected in describe(error, received: received, expected: expected, options: options) }
    }

    /// What happened to a download and, where it helps, what to do about it.
    static func describe(_ error: any Error, received: Int, expected: Int?, options: Options) -> String {
        let closedEarly = {
            if let expected, received < expected { return endedEarly(received, of: expected) }
            return "the server closed the connection before the download was complete (after \(received) bytes)"
        }
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .readTimeout:
                return "the server sent nothing for \(seconds(options.timeout)) s (after \(received) bytes of the body); "
                    + "it may be stalled: try again, or allow a longer timeout"
            case .connectTimeout:
                return "could not connect within \(seconds(options.timeout)) s; check the address, or allow a longer timeout"
            case .remoteConnectionClosed, .bodyLengthMismatch:
                return closedEarly()
            case .redirectLimitReached:
                return "more than \(options.maxRedirects) redirect\(options.maxRedirects == 1 ? "" : "s"); the server may redirect in a loop"
            case .redirectCycleDetected:
                return "the server redirects in a loop"
            case .cancelled:
                return "the download was cancelled"
            default:
                return "the download failed (\(error))"
            }
        case let error as HTTPParserError where error == .invalidEOFState:
            // The connection closed in the middle of the body.
            return closedEarly()
        case let error as NIOConnectionError:
            if let unknown = (error.dnsAError ?? error.dnsAAAAError) as? SocketAddressError.UnknownHost {
                return "cannot find the host \(unknown.host) (\(unknown.errorDescription)); check the URL"
            }
            if let lookup = error.dnsAError ?? error.dnsAAAAError {
                return "cannot look up the host \(error.host) (\(lookup))"
            }
            if let attempt = error.connectionErrors.first {
                return describe(attempt.error, received: received, expected: expected, options: options)
            }
            return "cannot connect to \(error.host):\(error.port)"
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED:
                return "cannot connect: connection refused (is the server running, and is the port right?)"
            case ECONNRESET, EPIPE:
                return "the server reset the connection (after \(received) bytes of the body)"
            case ENETUNREACH, EHOSTUNREACH:
                return "cannot connect: the network or the host is unreachable"
            default:
                return "the download failed: \(error)"
            }
        default:
            return "the download failed (\(error))"
        }
    }

    /// A duration as whole or decimal seconds: `30`, `0.5`.
    static func seconds(_ duration: Duration) -> String {
        let value = duration.seconds
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
