import Foundation
import RosterKit
import RosterKitTestSupport
import NIOConcurrencyHelpers
import Testing

/// A transport that answers each kind of request from its own script: the health probe, the
/// creates, the lookups, the deletes. Records everything.
final class RoutedTransport: HTTPTransport {
    enum Route: Hashable { case health, create, list, delete }
    private let scripts: NIOLockedValueBox<[Route: [Result<TransportResponse, APIError>]]>
    private let log = NIOLockedValueBox<[TransportRequest]>([])

    init(_ scripts: [Route: [Result<TransportResponse, APIError>]]) {
        self.scripts = NIOLockedValueBox(scripts)
    }

    var requests: [TransportRequest] { log.withLockedValue { $0 } }
    func requests(_ method: RosterKit.HTTPMethod) -> [TransportRequest] { requests.filter { $0.method == method } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        log.withLockedValue { $0.append(request) }
        let route: Route = switch request.method {
        case .post: .create
        case .delete: .delete
        default: request.url.path.hasSuffix("/health") ? .health : .list
        }
        let step = scripts.withLockedValue { scripts -> Result<TransportResponse, APIError>? in
            guard var steps = scripts[route], let first = steps.first else { return nil }
            if steps.count > 1 { steps.removeFirst() }
            scripts[route] = steps
            return first
        }
        guard let step else { throw APIError.transportFailed("no script for \(route)") }
        return try step.get()
    }
}

@Suite("Writes that may have landed")
struct WriteRetryTests {
    static let created = TransportResponse.text(envelope(sampleUserJSON), status: 201)
    static let replayingHealth = TransportResponse.text(envelope(#"{"status":"ok","features":["idempotency-key"]}"#))
    static let plainHealth = TransportResponse.text(envelope(#"{"status":"ok"}"#))
    static let draft = UserDraft(name: "Ana Silva", email: "Ana@Example.com")

    func repository(_ transport: RoutedTransport) -> RosterAPIDirectory {
        RosterAPIDirectory(client: makeClient(
            transport, clock: ContinuousClock(), retry: RetryPolicy(baseDelay: .milliseconds(1), jitter: { $0 })))
    }

    @Test func aCreateWhoseAnswerWasLostIsSentAgainWithTheSameKeyWhenTheServerReplaysKeys() async throws {
        let transport = RoutedTransport([.health: [.success(Self.replayingHealth)],
                                         .create: [.failure(.connectionLost), .success(Self.created)]])
        #expect(try await repository(transport).createUser(Self.draft, idempotencyKey: "key-1") == sampleUser)
        let posts = transport.requests(.post)
        #expect(posts.count == 2)
        #expect(posts.map { $0.headers["Idempotency-Key"] } == ["key-1", "key-1"])
        #expect(posts[0].body == posts[1].body)
    }

    @Test func aGroupCreateWhoseAnswerWasLostIsSentAgainOnlyWhereTheServerReplaysGroupKeys() async throws {
        let createdGroup = TransportResponse.text(envelope("""
            {"id":"g1","name":"Ops","member_count":0,"created_at":"2026-01-01T00:00:00.000Z","updated_at":"2026-01-01T00:00:00.000Z"}
            """), status: 201)
        // A server that replays user keys but not yet group keys, then one that replays both.
        for (features, resent) in [(#"["idempotency-key","groups"]"#, false), (#"["idempotency-key","groups","idempotency-key-groups"]"#, true)] {
            let health = TransportResponse.text(envelope(#"{"status":"ok","features":\#(features)}"#))
            let transport = RoutedTransport([.health: [.success(health)], .create: [.failure(.connectionLost), .success(createdGroup)]])
            let groups = RosterAPIDirectory(client: makeClient(
                transport, clock: ContinuousClock(), retry: RetryPolicy(baseDelay: .milliseconds(1), jitter: { $0 })))
            var created: Group?
            do { created = try await groups.createGroup(GroupDraft(name: "Ops"), idempotencyKey: "group-key") } catch {}
            #expect((created != nil) == resent, "\(features)")
            let posts = transport.requests(.post)
            #expect(posts.count == (resent ? 2 : 1), "\(features)")
            #expect(posts.allSatisfy { $0.headers["Idempotency-Key"] == "group-key" })
        }
    }

    /// A change of several members is one atomic POST, which the server keeps no key for: its
    /// retry could undo someone else's change made in the gap. (One member in or out is the
    /// idempotent PUT or DELETE, which may be sent again: GroupMembershipTests.)
    @Test func aMembershipChangeCarriesNoKeyAndIsNotResentAfterALostAnswer() async throws {
        let health = TransportResponse.text(envelope(#"{"status":"ok","features":["idempotency-key","groups","idempotency-key-groups"]}"#))
        let transport = RoutedTransport([.health: [.success(health)], .create: [.failure(.connectionLost)]])
        let client = makeClient(transport, clock: ContinuousClock(), retry: RetryPolicy(baseDelay: .milliseconds(1), jitter: { $0 }))
        _ = await client.learnServerFeatures()
        await #expect(throws: APIError.self) {
            _ = try await RosterAPIDirectory(client: client).changeMembers(of: "g1", MembershipChange(add: ["u1"], remove: ["u2"]))
        }
        let posts = transport.requests(.post)
        #expect(posts.count == 1)
        #expect(posts.first?.headers["Idempotency-Key"] == nil)
    }

    @Test func aCreateTurnedAwayWith429WaitsForRetryAfterAndIsSentAgainEvenWithoutKeyReplay() async throws {
        let tooMany = TransportResponse.text(#"{"error":{"code":"rate_limited","message":"slow down"}}"#, status: 429, headers: ["Retry-After": "1"])
        let transport = RoutedTransport([.health: [.success(Self.plainHealth)],
                                         .create: [.success(tooMany), .success(Self.created)]])
        let started = ContinuousClock.now
        #expect(try await repository(transport).createUser(Self.draft, idempotencyKey: "key-429") == sampleUser)
        #expect(ContinuousClock.now - started >= .seconds(1), "waited out Retry-After")
        #expect(transport.requests(.post).count == 2, "a 429 was not processed: sending it again cannot create twice")
        #expect(!RetryPolicy.mayResend(transport.requests(.post)[0], after: .serviceUnavailable(retryAfter: nil, nil), keysReplayed: false),
                "a 503 may come from a server that did part of the work: not resent without key replay")
    }

    @Test func withoutKeyReplayALostCreateIsNotResentAndTheLookupSaysWhatItFound() async throws {
        let found = envelope(#"{"items":[\#(sampleUserJSON)],"page":1,"per_page":20,"total":1}"#)
        let transport = RoutedTransport([.health: [.success(Self.plainHealth)],
                                         .create: [.failure(.timedOut)],
                                         .list: [.success(.text(found))]])
        await #expect(throws: APIError.createOutcomeUnknown(existing: sampleUser)) {
            try await repository(transport).createUser(Self.draft, idempotencyKey: "key-2")
        }
        #expect(transport.requests(.post).count == 1, "a POST that may have landed is never sent twice")
        let lookup = try #require(transport.requests.last)
        #expect(lookup.url.query?.contains("q=Ana%40Example.com") == true)
        let message = APIError.createOutcomeUnknown(existing: sampleUser).errorDescription ?? ""
        #expect(message.contains("Ana Silva") && message.contains("most likely this request created them"))
    }

    @Test func whenTheLookupFindsNoOneTheUserIsToldSo() async throws {
        let empty = envelope(#"{"items":[],"page":1,"per_page":20,"total":0}"#)
        let transport = RoutedTransport([.health: [.success(Self.plainHealth)],
                                         .create: [.failure(.connectionLost)],
                                         .list: [.success(.text(empty))]])
        await #expect(throws: APIError.createOutcomeUnknown(existing: nil)) {
            try await repository(transport).createUser(Self.draft, idempotencyKey: "key-3")
        }
        #expect(transport.requests(.post).count == 1)
    }

    @Test func aServerThatAnsweredIsBelievedAndAPostIsNotRetriedOnA503WithoutReplay() async throws {
        let transport = RoutedTransport([.health: [.success(Self.plainHealth)],
                                         .create: [.success(.error(503, code: "down", message: "Down."))]])
        await #expect(throws: APIError.serviceUnavailable(retryAfter: nil, ErrorBody(code: "down", message: "Down."))) {
            try await repository(transport).createUser(Self.draft, idempotencyKey: "key-4")
        }
        #expect(transport.requests(.post).count == 1)
    }

    @Test func aPostThatCouldNotConnectIsSentAgainSinceNothingReachedTheServer() async throws {
        let transport = RoutedTransport([.health: [.success(Self.plainHealth)],
                                         .create: [.failure(.cannotConnect(host: "h")), .success(Self.created)]])
        #expect(try await repository(transport).createUser(Self.draft, idempotencyKey: "key-5") == sampleUser)
        #expect(transport.requests(.post).count == 2)
    }

    @Test func theHealthProbeRunsOnceAndEveryCreateCarriesItsOwnKey() async throws {
        let transport = RoutedTransport([.health: [.success(Self.replayingHealth)], .create: [.success(Self.created)]])
        let users = repository(transport)
        _ = try await users.createUser(Self.draft)
        _ = try await users.createUser(Self.draft)
        #expect(transport.requests(.get).count == 1)
        let keys = transport.requests(.post).compactMap { $0.headers["Idempotency-Key"] }
        #expect(keys.count == 2 && keys[0] != keys[1])
        #expect(keys.allSatisfy { UUID(uuidString: $0) != nil })
    }

    @Test func aDeleteWhoseAnswerWasLostAndWhoseRetryFindsNoOneCountsAsDeleted() async throws {
        let notFound = TransportResponse.error(404, code: "not_found", message: "No user has that id.")
        let transport = RoutedTransport([.delete: [.failure(.connectionLost), .success(notFound)]])
        try await repository(transport).deleteUser(id: "u1")
        #expect(transport.requests(.delete).count == 2)
    }

    @Test func aDeleteOfSomeoneAlreadyGoneIsStillA404() async throws {
        let notFound = TransportResponse.error(404, code: "not_found", message: "No user has that id.")
        let transport = RoutedTransport([.delete: [.success(notFound)]])
        await #expect(throws: APIError.notFound(ErrorBody(code: "not_found", message: "No user has that id."))) {
            try await repository(transport).deleteUser(id: "u1")
        }
    }
}

@Suite("Writes that may have landed: when the lookup fails too")
struct LostCreateLookupFailsTests {
    @Test func aLookupThatFailsClaimsNothingAndTheFirstFailureIsShown() async throws {
        let transport = RoutedTransport([.health: [.success(WriteRetryTests.plainHealth)],
                                         .create: [.failure(.timedOut)],
                                         .list: [.failure(.connectionLost)]])
        let repository = RosterAPIDirectory(client: makeClient(
            transport, clock: ContinuousClock(), retry: .never))
        await #expect(throws: APIError.timedOut) {
            try await repository.createUser(WriteRetryTests.draft, idempotencyKey: "key-6")
        }
        #expect(transport.requests(.post).count == 1)
    }
}
