package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.ConnectionRejectedException;
import io.rdmareactive.spi.DeviceCapability;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.ProtectionDomain;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import java.time.Duration;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * How a {@link ProtocolConnection} comes to be: the client's connect, the listener's admission (check the proposal,
 * refuse a one-sided secret, allocate or reject with a reason both sides read) and accept, the authenticated
 * handshake's extra round trip, and the memory a connection is given. Everything here runs on the thread that
 * connects or accepts, never on an event loop; what it starts is handed to one.
 */
public final class ConnectionEstablishment {

    private ConnectionEstablishment() {
    }

    /**
     * Connects to a listener and runs the handshake: proposes this side's settings; the listener answers with the
     * same stream slots and ring capacity (or refuses), and both use the smaller of their maximum message lengths.
     *
     * @throws ProtocolException if the listener refused (its reason in the message) or answered with a handshake
     * this side cannot accept
     */
    public static ProtocolConnection connect(final RdmaDevice device, final String address,
                                             final ProtocolOptions options, final Duration timeout) {
        return connect(device, address, options, timeout, null);
    }

    /**
     * As {@link #connect(RdmaDevice, String, ProtocolOptions, Duration)}; with a secret, the handshake is
     * authenticated ({@link HandshakeAuthentication}): this side's keys go only to a server that proved it knows the
     * secret, and the server's keys come only after this side proved it. The whole exchange is bounded by
     * {@code timeout} and runs on the calling thread.
     *
     * @param secret the shared secret (at least 16 bytes), or null for the plain handshake
     */
    public static ProtocolConnection connect(final RdmaDevice device, final String address,
                                             final ProtocolOptions options, final Duration timeout,
                                             final byte[] secret) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        final Resources resources = Resources.allocate(device, options);
        try {
            final QueuePair queuePair;
            final boolean canMapPeers = canMapPeers(device);
            final byte[] proposal;
            AuthReceive keysReceive = null;
            try {
                if (secret == null) {
                    proposal = handshake(options, resources.remote, canMapPeers);
                    queuePair = device.connect(address, resources.queuePairOptions(options), proposal, timeout);
                } else {
                    proposal = authenticatedHandshake(options, HandshakeAuthentication.clientNonce(), canMapPeers);
                    final byte[] cookie = challenge(device, address, resources.queuePairOptions(options), proposal,
                        timeout);
                    System.arraycopy(cookie, 0, proposal, HandshakeFlyweight.AUTH_COOKIE_OFFSET, cookie.length);
                    keysReceive = new AuthReceive(resources.local, options);
                    // the proof binds this side's endpoint, known once the queue pair exists
                    queuePair = device.connect(address, resources.queuePairOptions(options, keysReceive), created -> {
                        System.arraycopy(HandshakeAuthentication.proof(secret, proposal, created.localEndpoint()), 0,
                            proposal, HandshakeFlyweight.AUTH_MAC_OFFSET, HandshakeAuthentication.PROOF_LENGTH);
                        return proposal;
                    }, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                }
            } catch (final ConnectionRejectedException rejected) {
                throw refused(address, rejected);
            }
            final HandshakeFlyweight answer = new HandshakeFlyweight();
            final byte[] answerData = queuePair.peerPrivateData();
            String problem = checkAnswer(answerData, options, answer);
            if (problem == null && answer.isAuthenticated() != (secret != null)) {
                problem = secret != null ? "the server did not authenticate its answer; set RdmaServer.secret(...)"
                    : "the server requires an authenticated handshake; set RdmaClient.secret(...)";
            }
            if (problem != null) {
                queuePair.close();
                throw new ProtocolException("the peer at '" + address + "' answered with a handshake this side cannot "
                    + "accept: " + problem);
            }
            final ProtocolOptions agreed = agreed(answer, options);
            final boolean direct = canMapPeers && answer.isDirect();
            if (secret == null) {
                return ProtocolConnection.start(device, agreed, resources.completions(), resources.local(),
                    resources.remote(), resources.domain(), queuePair, answer, direct);
            }
            final AuthExchange exchange = new AuthExchange(secret, proposal, answerData, resources.completions,
                resources.local, resources.remote, queuePair, keysReceive, "the server at '" + address + "'");
            try {
                return ProtocolConnection.start(device, agreed, resources.completions(), resources.local(),
                    resources.remote(), resources.domain(), queuePair,
                    exchange.asClient(agreed, deadline, timeout.toMillis()), direct);
            } catch (final RuntimeException ex) {
                queuePair.close();
                throw ex;
            }
        } catch (final RuntimeException ex) {
            resources.close();
            throw ex;
        }
    }

    /**
     * The authenticated handshake's first request: the server answers it with a challenge and holds nothing for it.
     *
     * @return the challenge's cookie
     * @throws ConnectionRejectedException if the server refused instead (its reason in the private data)
     */
    private static byte[] challenge(final RdmaDevice device, final String address, final QueuePairOptions options,
                                    final byte[] proposal, final Duration timeout) {
        final QueuePair accepted;
        try {
            accepted = device.connect(address, options, proposal, timeout);
        } catch (final ConnectionRejectedException rejected) {
            final byte[] cookie = ChallengeFlyweight.decode(rejected.privateData());
            if (cookie != null) {
                return cookie;
            }
            throw rejected;
        }
        accepted.close();
        throw new ProtocolException("the peer at '" + address + "' accepted an authenticated connect request without "
            + "its proof: it does not speak version " + HandshakeFlyweight.VERSION + "'s authenticated handshake");
    }

    private static ProtocolException refused(final String address, final ConnectionRejectedException rejected) {
        final String reason = RejectFlyweight.decode(rejected.privateData());
        return new ProtocolException("the peer at '" + address + "' refused the connection: "
            + (reason != null ? reason : rejected.getMessage()), rejected);
    }

    /** A connect request whose handshake was acceptable, with the agreed options and the connection's memory. */
    private record Admitted(ProtocolOptions agreed, Resources resources) {
    }

    /**
     * Checks a connect request's handshake (into {@code proposal}) and allocates its connection; rejects it with the
     * reason, which the peer reads too, when the handshake is unacceptable, when exactly one side asks for the
     * authenticated handshake, or when the connection cannot be allocated.
     *
     * @throws ProtocolException if the request was rejected for its handshake
     */
    private static Admitted admit(final RdmaDevice device, final ConnectRequest request, final ProtocolOptions options,
                                  final HandshakeFlyweight proposal, final boolean authenticated) {
        check(device, request, options, proposal, authenticated);
        final ProtocolOptions agreed = agreed(proposal, options);
        try {
            return new Admitted(agreed, Resources.allocate(device, agreed));
        } catch (final RuntimeException ex) {
            reject(device, request, "the listener cannot allocate the connection: " + ex.getMessage(), ex);
            throw ex;
        }
    }

    /** Rejects a request whose handshake is unacceptable, or asks for the authenticated one when this side does not. */
    private static void check(final RdmaDevice device, final ConnectRequest request, final ProtocolOptions options,
                              final HandshakeFlyweight proposal, final boolean authenticated) {
        String problem = checkProposal(request.privateData(), options, proposal);
        if (problem == null && proposal.isAuthenticated() != authenticated) {
            problem = authenticated
                ? "the server requires an authenticated handshake; set RdmaClient.secret(...)"
                : "the client requires an authenticated handshake; set RdmaServer.secret(...)";
        }
        if (problem != null) {
            throw refuse(device, request, problem);
        }
    }

    /** Rejects with the reason and returns the exception that says so on this side. */
    private static ProtocolException refuse(final RdmaDevice device, final ConnectRequest request,
                                            final String problem) {
        final ProtocolException refused = new ProtocolException("refused a connection from "
            + request.peerDescription() + ": " + problem);
        reject(device, request, problem, refused);
        return refused;
    }

    /**
     * The first look of a server that requires the authenticated handshake at a connect request, cheap and holding
     * nothing: a request without a proof is answered with a challenge (a cookie), one with a stale or foreign cookie or
     * a proof that does not check is refused, and one with a proof that checks may be accepted
     * ({@link #acceptAuthenticated}). The proof binds the endpoint of the queue pair that sent the request, so a
     * request relayed from another connection does not check.
     *
     * @param secret  the shared secret, at least 16 bytes
     * @param cookies this server's cookies
     * @return true if the client proved it knows the secret; false if it was challenged
     * @throws ProtocolException if the request was refused (the peer got the same reason)
     */
    public static boolean screen(final RdmaDevice device, final ConnectRequest request, final ProtocolOptions options,
                                 final byte[] secret, final HandshakeCookies cookies) {
        final byte[] data = request.privateData();
        check(device, request, options, new HandshakeFlyweight(), true);
        if (isZero(data, HandshakeFlyweight.AUTH_COOKIE_OFFSET, HandshakeFlyweight.COOKIE_LENGTH)
            && isZero(data, HandshakeFlyweight.AUTH_MAC_OFFSET, HandshakeAuthentication.PROOF_LENGTH)) {
            request.reject(ChallengeFlyweight.encode(cookies.issue(data)));
            return false;
        }
        if (!cookies.check(data)) {
            throw refuse(device, request, "authentication failed: the challenge's cookie is stale or not this "
                + "server's; connect again");
        }
        final byte[] proof = Arrays.copyOfRange(data, HandshakeFlyweight.AUTH_MAC_OFFSET,
            HandshakeFlyweight.AUTH_MAC_OFFSET + HandshakeAuthentication.PROOF_LENGTH);
        if (!HandshakeAuthentication.matches(HandshakeAuthentication.proof(secret, data, request.peerEndpoint()),
            HandshakeAuthentication.PROOF_LENGTH, proof)) {
            // at most 96 bytes reach the client
            throw refuse(device, request, "authentication failed: the proof does not match (a wrong secret, or a "
                + "relayed handshake)");
        }
        return true;
    }

    private static boolean isZero(final byte[] data, final int offset, final int length) {
        int bits = 0;
        for (int i = offset; i < offset + length; i++) {
            bits |= data[i];
        }
        return bits == 0;
    }

    /**
     * Answers a connect request: accepts it if its handshake is acceptable (at most this side's stream slots and ring
     * capacity; the smaller maximum message length is agreed), rejects it with the reason otherwise. A request whose
     * connection cannot be allocated is rejected too, with a short reason, before the failure is rethrown.
     *
     * @throws ProtocolException if the request was rejected (the peer got the same reason)
     */
    public static ProtocolConnection accept(final RdmaDevice device, final ConnectRequest request,
                                            final ProtocolOptions options) {
        final HandshakeFlyweight proposal = new HandshakeFlyweight();
        final Admitted admitted = admit(device, request, options, proposal, false);
        final ProtocolOptions agreed = admitted.agreed();
        final Resources resources = admitted.resources();
        final boolean direct = proposal.isDirect() && canMapPeers(device);
        try {
            final QueuePair queuePair = request.accept(resources.queuePairOptions(agreed),
                handshake(agreed, resources.remote, direct));
            return ProtocolConnection.start(device, agreed, resources.completions(), resources.local(),
                    resources.remote(), resources.domain(), queuePair, proposal, direct);
        } catch (final RuntimeException ex) {
            resources.close();
            throw ex;
        }
    }

    /**
     * Answers a connect request whose proof {@link #screen} checked: as {@link #accept(RdmaDevice, ConnectRequest,
     * ProtocolOptions)}, but the answer carries a nonce and this side's MAC instead of its keys, and the connection
     * starts only once the client's keys have arrived and checked ({@link Authenticating#await}).
     *
     * @param secret the shared secret, at least 16 bytes
     * @throws ProtocolException if the request was rejected (the peer got the same reason)
     */
    public static Authenticating acceptAuthenticated(final RdmaDevice device, final ConnectRequest request,
                                                     final ProtocolOptions options, final byte[] secret) {
        final HandshakeFlyweight proposal = new HandshakeFlyweight();
        final byte[] proposalData = request.privateData();
        final Admitted admitted = admit(device, request, options, proposal, true);
        final ProtocolOptions agreed = admitted.agreed();
        final Resources resources = admitted.resources();
        final boolean direct = proposal.isDirect() && canMapPeers(device);
        try {
            final byte[] answer = authenticatedHandshake(agreed, HandshakeAuthentication.nonce(), direct);
            final AuthReceive keysReceive = new AuthReceive(resources.local, agreed);
            // the MAC binds the connection's endpoints, known once the queue pair exists
            final QueuePair queuePair = request.accept(resources.queuePairOptions(agreed, keysReceive), created -> {
                System.arraycopy(AuthExchange.answerMac(secret, proposalData, answer, created), 0, answer,
                    HandshakeFlyweight.AUTH_MAC_OFFSET, HandshakeAuthentication.ANSWER_MAC_LENGTH);
                return answer;
            });
            return new Authenticating(device, agreed, resources, queuePair, new AuthExchange(secret, proposalData,
                answer, resources.completions, resources.local, resources.remote, queuePair, keysReceive,
                "the client " + request.peerDescription()), direct);
        } catch (final RuntimeException ex) {
            resources.close();
            throw ex;
        }
    }

    /**
     * A server's connection between its authenticated answer and the client's keys: nothing of this side's memory was
     * given away yet. {@link #await} waits for the keys on the calling thread (never an event loop's).
     */
    public static final class Authenticating {
        private final RdmaDevice device;
        private final ProtocolOptions options;
        private final Resources resources;
        private final QueuePair queuePair;
        private final AuthExchange exchange;
        private final boolean direct;

        private Authenticating(final RdmaDevice device, final ProtocolOptions options, final Resources resources,
                               final QueuePair queuePair, final AuthExchange exchange, final boolean direct) {
            this.direct = direct;
            this.device = device;
            this.options = options;
            this.resources = resources;
            this.queuePair = queuePair;
            this.exchange = exchange;
        }

        /**
         * Waits for the client's keys, checks their MAC, sends this side's keys and starts the connection.
         *
         * @param timeout how long the client has to send its keys
         * @throws ProtocolException if the keys did not come in time, were malformed or did not match
         *     ("authentication failed: ..."); the connection and its resources are released
         */
        public ProtocolConnection await(final Duration timeout) {
            try {
                return ProtocolConnection.start(device, options, resources.completions(), resources.local(),
                    resources.remote(), resources.domain(), queuePair,
                    exchange.asServer(options, System.nanoTime() + timeout.toNanos(), timeout.toMillis()), direct);
            } catch (final RuntimeException ex) {
                queuePair.close();
                resources.close();
                throw ex;
            }
        }

        /** Gives the connection up without waiting for the keys: its queue pair and memory are released. */
        public void abandon() {
            queuePair.close();
            resources.close();
        }

        /** @return who is at the other end */
        public String peerDescription() {
            return queuePair.peerDescription();
        }
    }

    // ------------------------------------------------------------------------------------------------ handshake

    /** @return true if the device maps its peers' memory, so that data can go straight into their rings */
    private static boolean canMapPeers(final RdmaDevice device) {
        return device.capabilities().contains(DeviceCapability.DIRECT_PEER_ACCESS);
    }

    /** @return this side's handshake: its settings, DIRECT if it offers direct peer access, its receive region */
    private static byte[] handshake(final ProtocolOptions options, final MemoryRegion receiveRegion,
                                    final boolean direct) {
        final byte[] privateData = new byte[HandshakeFlyweight.LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(privateData);
        new HandshakeFlyweight().wrap(buffer, 0).write(options.maxStreams(),
            options.ringCapacity(), options.maxMessageLength(), receiveRegion.rkey(), receiveRegion.address(),
            receiveRegion.length());
        buffer.putShort(HandshakeFlyweight.FLAGS_OFFSET, (short) (direct ? HandshakeFlyweight.FLAG_DIRECT : 0),
            HandshakeFlyweight.BYTE_ORDER);
        return privateData;
    }

    /** @return this side's authenticated handshake: its settings, AUTH, a nonce; no keys (and no MAC yet) */
    private static byte[] authenticatedHandshake(final ProtocolOptions options, final byte[] nonce,
                                                 final boolean direct) {
        final byte[] privateData = new byte[HandshakeFlyweight.AUTH_LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(privateData);
        new HandshakeFlyweight().wrap(buffer, 0).write(options.maxStreams(), options.ringCapacity(),
            options.maxMessageLength(), 0, 0, 0);
        buffer.putShort(HandshakeFlyweight.FLAGS_OFFSET, (short) (HandshakeFlyweight.FLAG_AUTH
            | (direct ? HandshakeFlyweight.FLAG_DIRECT : 0)), HandshakeFlyweight.BYTE_ORDER);
        System.arraycopy(nonce, 0, privateData, HandshakeFlyweight.AUTH_NONCE_OFFSET, nonce.length);
        return privateData;
    }

    /**
     * The listener's check of a client's proposal: a well-formed handshake ({@link HandshakeFlyweight#validate}) that
     * asks for no more stream slots and no larger rings than this side allows.
     *
     * @param proposal wrapped around the private data when it is a well-formed handshake
     * @return null if acceptable, else the reason (for both sides)
     */
    private static String checkProposal(final byte[] privateData, final ProtocolOptions mine,
                                        final HandshakeFlyweight proposal) {
        final String problem = validate(privateData, proposal);
        if (problem != null) {
            return problem;
        }
        if (proposal.maxStreams() > mine.maxStreams()) {
            return "the peer asks for " + proposal.maxStreams() + " streams; this side allows 2 to " + mine.maxStreams();
        }
        if (proposal.ringCapacity() > mine.ringCapacity()) {
            return "the peer asks for rings of " + proposal.ringCapacity() + " bytes; this side allows 4096 to "
                + mine.ringCapacity();
        }
        return null;
    }

    /**
     * The client's check of the listener's answer: a well-formed handshake with exactly the stream slots and ring
     * capacity proposed.
     *
     * @param answer wrapped around the private data when it is a well-formed handshake
     * @return null if acceptable, else the reason
     */
    private static String checkAnswer(final byte[] privateData, final ProtocolOptions proposed,
                                      final HandshakeFlyweight answer) {
        final String problem = validate(privateData, answer);
        if (problem != null) {
            return problem;
        }
        if (answer.maxStreams() != proposed.maxStreams() || answer.ringCapacity() != proposed.ringCapacity()) {
            return "the peer answered with " + answer.maxStreams() + " streams of " + answer.ringCapacity()
                + " bytes, not the " + proposed.maxStreams() + " of " + proposed.ringCapacity() + " proposed";
        }
        return null;
    }

    private static String validate(final byte[] privateData, final HandshakeFlyweight handshake) {
        final UnsafeBuffer buffer = privateData == null ? null : new UnsafeBuffer(privateData);
        final String problem = HandshakeFlyweight.validate(buffer, 0, privateData == null ? 0 : privateData.length);
        if (problem == null) {
            handshake.wrap(buffer, 0);
        }
        return problem;
    }

    /** @return the settings both sides use: the peer's (checked) slots and rings, the smaller maximum message */
    private static ProtocolOptions agreed(final HandshakeFlyweight peer, final ProtocolOptions mine) {
        return new ProtocolOptions(peer.maxStreams(), peer.ringCapacity(),
            Math.min(peer.maxMessageLength(), mine.maxMessageLength()), mine.keepaliveInterval(),
            mine.livenessTimeout());
    }

    /** Rejects with the reason, cut to what the device carries; a failure to reject is recorded on {@code failure}. */
    private static void reject(final RdmaDevice device, final ConnectRequest request, final String reason,
                               final RuntimeException failure) {
        try {
            request.reject(RejectFlyweight.encode(reason, device.limits().maxRejectPrivateDataLength()));
        } catch (final RuntimeException notRejected) {
            failure.addSuppressed(notRejected);
        }
    }

    /**
     * The per-connection resources, released together if setup fails: a protection domain of the connection's own (so
     * that no other connection's peer can reach its memory with keys it learnt), its two regions in it, and its
     * completion queue.
     */
    private record Resources(CompletionQueue completions, MemoryRegion local, MemoryRegion remote,
                             ProtectionDomain domain) {
        static Resources allocate(final RdmaDevice device, final ProtocolOptions options) {
            ProtectionDomain domain = null;
            MemoryRegion local = null;
            MemoryRegion remote = null;
            CompletionQueue completions = null;
            try {
                domain = device.allocateProtectionDomain();
                local = domain.allocateRegion(options.localRegionLength(), Access.LOCAL_WRITE);
                remote = domain.allocateRegion(options.remoteRegionLength(), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
                completions = device.createCompletionQueue(ProtocolConnection.sendDepth(options.maxStreams())
                    + ProtocolConnection.RECEIVE_DEPTH + 16);
                return new Resources(completions, local, remote, domain);
            } catch (final RuntimeException ex) {
                if (completions != null) {
                    completions.close();
                }
                if (remote != null) {
                    remote.close();
                }
                if (local != null) {
                    local.close();
                }
                if (domain != null) {
                    domain.close();
                }
                throw ex;
            }
        }

        QueuePairOptions queuePairOptions(final ProtocolOptions options) {
            return builder(options).build();
        }

        /** With the authenticated handshake's receive posted before the peer can send. */
        QueuePairOptions queuePairOptions(final ProtocolOptions options, final AuthReceive receive) {
            return builder(options).prepare(receive::post).build();
        }

        private QueuePairOptions.Builder builder(final ProtocolOptions options) {
            return QueuePairOptions.builder(completions, completions)
                .sendDepth(ProtocolConnection.sendDepth(options.maxStreams())).receiveDepth(ProtocolConnection.RECEIVE_DEPTH)
                .maxSendSge(1).maxReceiveSge(1).maxInlineData(64).signalAll(true).rnrRetries(0).protectionDomain(domain);
        }

        void close() {
            completions.close();
            remote.close();
            local.close();
            domain.close();
        }
    }
}
