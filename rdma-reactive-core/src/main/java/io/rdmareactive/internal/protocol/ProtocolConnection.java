package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.FrameHeaderFlyweight.HEADER_LENGTH;
import static io.rdmareactive.internal.protocol.ProtocolStream.CONTROL_STREAM;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionHandler;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.ConnectionRejectedException;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.time.Duration;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One connection of the protocol, written once against the provider SPI: a queue pair, a completion queue, and for
 * each stream a send ring mirrored into the peer's receive ring.
 *
 * <p>{@link #doWork(long)} is the driver's duty cycle for the connection: it polls completions (checking every
 * immediate and every frame the peer wrote), reposts receives and tells the peer about them, returns credit for
 * consumed bytes in batches, posts each stream's committed bytes as RDMA WRITE WITH IMMEDIATE (one work request,
 * two where the range wraps), and keeps the connection alive or declares the peer dead. It allocates nothing and
 * throws nothing; a failure ends the connection with {@link #error()} set. It runs on one thread at a time.
 *
 * <p>Application threads use {@link #stream(int)}: one producer and one consumer per stream.
 */
public final class ProtocolConnection implements AutoCloseable, CompletionHandler {

    static final int RECEIVE_DEPTH = 256;
    private static final int COMPLETIONS_PER_POLL = 64;
    private static final long KIND_DATA = 0L;
    private static final long KIND_CREDIT = 1L << 62;
    private static final long KIND_GRANT = 2L << 62;
    private static final long KIND_MASK = 3L << 62;
    private static final long POSITION_MASK = (1L << 48) - 1;

    private final RdmaDevice device;
    private final ProtocolOptions options;
    private final int maxStreams;
    private final int ringCapacity;
    private final CompletionQueue completions;
    private final MemoryRegion local;
    private final MemoryRegion remote;
    private final QueuePair queuePair;
    private final long peerAddress;
    private final int peerRkey;
    private final ProtocolStream[] streams;
    private final SendWorkRequest sends;
    private final ReceiveWorkRequest receives;
    private final int maxOutstandingSends;
    private final AtomicBuffer lines;
    private final AtomicBuffer staging;
    private final FrameConsumer controlConsumer = this::onControlFrame;
    // the driver's flyweights, for the control stream (driver thread only)
    private final RequestNFlyweight requestNOut = new RequestNFlyweight();
    private final StreamControlFlyweight cancelOut = new StreamControlFlyweight();
    private final KeepaliveFlyweight keepaliveOut = new KeepaliveFlyweight();
    private final RequestNFlyweight requestNIn = new RequestNFlyweight();
    private final StreamControlFlyweight cancelIn = new StreamControlFlyweight();
    /** A copy of the control frame being read: the peer can rewrite its ring, so the copy is checked and used. */
    private final UnsafeBuffer controlFrame = new UnsafeBuffer(new byte[RequestNFlyweight.LENGTH]);

    private long nowNanos;
    private long lastReceivedNanos;
    /** When the last duty cycle ran: a long gap since then was this side's own pause, not the peer's silence. */
    private long lastCycleNanos;
    private long lastSentNanos;
    private long receivesPosted;
    private int receivesToRepost;
    private boolean grantPending;
    private long grantFromPeer;
    private long immediatesPosted;
    private int outstandingSends;
    /**
     * The work request ids of the sends posted and not yet completed, in post order: a reliable connection completes
     * the sends of one queue pair in that order, so a completion that is not the one due was reordered, or one before
     * it was lost. The receives are checked the same way against {@link #receivesCompleted}.
     */
    private final long[] sendIdsDue;
    private long sendsAdded;
    private long sendsCompleted;
    private long receivesCompleted;
    private volatile String error;
    private volatile boolean closed;
    private volatile boolean peerClosed;
    /** The peer disconnected on purpose; what it wrote before may still wait in the completion queue (driver). */
    private boolean peerClosing;
    /** The goodbye word's value once a side closes on purpose. */
    static final long GOODBYE = 1;
    /** How long close() waits for its last credit and goodbye writes to complete before it disconnects. */
    private static final long GOODBYE_WAIT_NANOS = 200_000_000L;
    /** What the provider said of the peer's disconnect: on verbs, it cannot tell a close from a process that died. */
    private String peerClosingReason;
    private long flushedSinceNanos;
    private String flushReason;
    private volatile StreamActivity activity = StreamActivity.NONE;
    private boolean terminationReported;

    private ProtocolConnection(final RdmaDevice device, final ProtocolOptions options, final CompletionQueue completions,
                               final MemoryRegion local, final MemoryRegion remote, final QueuePair queuePair,
                               final HandshakeFlyweight peer) {
        this.device = device;
        this.options = options;
        this.maxStreams = options.maxStreams();
        this.ringCapacity = options.ringCapacity();
        this.completions = completions;
        this.local = local;
        this.remote = remote;
        this.queuePair = queuePair;
        this.peerAddress = peer.receiveRegionAddress();
        this.peerRkey = peer.receiveRegionRkey();
        final long linesOffset = ConnectionLayout.lineOffset(0, maxStreams, ringCapacity);
        this.lines = new UnsafeBuffer(remote.address() + linesOffset, maxStreams * ConnectionLayout.LINE);
        this.staging = new UnsafeBuffer(local.address() + linesOffset, maxStreams * ConnectionLayout.LINE);
        this.streams = new ProtocolStream[maxStreams];
        for (int s = 0; s < maxStreams; s++) {
            final long ring = ConnectionLayout.ringOffset(s, ringCapacity);
            streams[s] = new ProtocolStream(s, maxStreams,
                new StreamSendRing(new UnsafeBuffer(local.address() + ring, ringCapacity),
                    new UnsafeBuffer(lines, s * ConnectionLayout.LINE, ConnectionLayout.LINE)),
                new StreamReceiveRing(new UnsafeBuffer(remote.address() + ring, ringCapacity), s, maxStreams));
        }
        this.maxOutstandingSends = sendDepth(maxStreams) - 4;
        this.sendIdsDue = new long[Integer.highestOneBit(maxOutstandingSends) << 1];
        this.sends = queuePair.newSendRequest(3 * maxStreams + 2);
        this.receives = queuePair.newReceiveRequest(RECEIVE_DEPTH);
    }

    private static int sendDepth(final int maxStreams) {
        return 8 * maxStreams + 64;
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
            final byte[] proposal = secret == null ? handshake(options, resources.remote)
                : authenticatedHandshake(options, HandshakeAuthentication.nonce());
            final AuthReceive keysReceive = secret == null ? null : new AuthReceive(resources.local, options);
            try {
                queuePair = device.connect(address, keysReceive == null ? resources.queuePairOptions(options)
                    : resources.queuePairOptions(options, keysReceive), proposal, timeout);
            } catch (final ConnectionRejectedException rejected) {
                final String reason = RejectFlyweight.decode(rejected.privateData());
                throw new ProtocolException("the peer at '" + address + "' refused the connection: "
                    + (reason != null ? reason : rejected.getMessage()), rejected);
            }
            final HandshakeFlyweight answer = new HandshakeFlyweight();
            final byte[] answerData = queuePair.peerPrivateData();
            String problem = checkAnswer(answerData, options, answer);
            if (problem == null && (answer.flags() == HandshakeFlyweight.FLAG_AUTH) != (secret != null)) {
                problem = secret != null ? "the server did not authenticate its answer; set RdmaServer.secret(...)"
                    : "the server requires an authenticated handshake; set RdmaClient.secret(...)";
            }
            if (problem != null) {
                queuePair.close();
                throw new ProtocolException("the peer at '" + address + "' answered with a handshake this side cannot "
                    + "accept: " + problem);
            }
            final ProtocolOptions agreed = agreed(answer, options);
            if (secret == null) {
                return start(device, agreed, resources, queuePair, answer);
            }
            final AuthExchange exchange = new AuthExchange(secret, proposal, answerData, resources.completions,
                resources.local, resources.remote, queuePair, keysReceive, "the server at '" + address + "'");
            try {
                return start(device, agreed, resources, queuePair,
                    exchange.asClient(agreed, deadline, timeout.toMillis()));
            } catch (final RuntimeException ex) {
                queuePair.close();
                throw ex;
            }
        } catch (final RuntimeException ex) {
            resources.close();
            throw ex;
        }
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
        String problem = checkProposal(request.privateData(), options, proposal);
        if (problem == null && (proposal.flags() == HandshakeFlyweight.FLAG_AUTH) != authenticated) {
            problem = authenticated
                ? "the server requires an authenticated handshake; set RdmaClient.secret(...)"
                : "the client requires an authenticated handshake; set RdmaServer.secret(...)";
        }
        if (problem != null) {
            final ProtocolException refused = new ProtocolException("refused a connection from "
                + request.peerDescription() + ": " + problem);
            reject(device, request, problem, refused);
            throw refused;
        }
        final ProtocolOptions agreed = agreed(proposal, options);
        try {
            return new Admitted(agreed, Resources.allocate(device, agreed));
        } catch (final RuntimeException ex) {
            reject(device, request, "the listener cannot allocate the connection: " + ex.getMessage(), ex);
            throw ex;
        }
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
        try {
            final QueuePair queuePair = request.accept(resources.queuePairOptions(agreed),
                handshake(agreed, resources.remote));
            return start(device, agreed, resources, queuePair, proposal);
        } catch (final RuntimeException ex) {
            resources.close();
            throw ex;
        }
    }

    /**
     * Answers a connect request with the authenticated handshake: as {@link #accept(RdmaDevice, ConnectRequest,
     * ProtocolOptions)}, but the answer carries a nonce and this side's MAC instead of its keys, and the connection
     * starts only once the client's proof has arrived and checked ({@link Authenticating#await}). A request without
     * the AUTH flag is rejected with a reason that names {@code RdmaClient.secret}.
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
        try {
            final byte[] answer = authenticatedHandshake(agreed, HandshakeAuthentication.nonce());
            final byte[] serverMac = HandshakeAuthentication.mac(secret, "rr-server",
                AuthExchange.nonce(proposalData), AuthExchange.nonce(answer), AuthExchange.settings(proposalData),
                AuthExchange.settings(answer));
            System.arraycopy(serverMac, 0, answer, HandshakeFlyweight.AUTH_MAC_OFFSET,
                HandshakeAuthentication.ANSWER_MAC_LENGTH);
            final AuthReceive proofReceive = new AuthReceive(resources.local, agreed);
            final QueuePair queuePair = request.accept(resources.queuePairOptions(agreed, proofReceive), answer);
            return new Authenticating(device, agreed, resources, queuePair, new AuthExchange(secret, proposalData,
                answer, resources.completions, resources.local, resources.remote, queuePair, proofReceive, "the client " + request.peerDescription()));
        } catch (final RuntimeException ex) {
            resources.close();
            throw ex;
        }
    }

    /**
     * A server's connection between its authenticated answer and the client's proof: nothing of this side's memory
     * was given away yet. {@link #await} waits for the proof on the calling thread (never the driver's).
     */
    public static final class Authenticating {
        private final RdmaDevice device;
        private final ProtocolOptions options;
        private final Resources resources;
        private final QueuePair queuePair;
        private final AuthExchange exchange;

        private Authenticating(final RdmaDevice device, final ProtocolOptions options, final Resources resources,
                               final QueuePair queuePair, final AuthExchange exchange) {
            this.device = device;
            this.options = options;
            this.resources = resources;
            this.queuePair = queuePair;
            this.exchange = exchange;
        }

        /**
         * Waits for the client's proof, checks it, sends this side's keys and starts the connection.
         *
         * @param timeout how long the client has to prove it knows the secret
         * @throws ProtocolException if the proof did not come in time, was malformed or did not match
         *     ("authentication failed: ..."); the connection and its resources are released
         */
        public ProtocolConnection await(final Duration timeout) {
            try {
                return start(device, options, resources, queuePair,
                    exchange.asServer(options, System.nanoTime() + timeout.toNanos(), timeout.toMillis()));
            } catch (final RuntimeException ex) {
                queuePair.close();
                resources.close();
                throw ex;
            }
        }

        /** Gives the connection up without waiting for the proof: its queue pair and memory are released. */
        public void abandon() {
            queuePair.close();
            resources.close();
        }

        /** @return who is at the other end */
        public String peerDescription() {
            return queuePair.peerDescription();
        }
    }

    private static ProtocolConnection start(final RdmaDevice device, final ProtocolOptions options,
                                            final Resources resources, final QueuePair queuePair,
                                            final HandshakeFlyweight peer) {
        final ProtocolConnection connection = new ProtocolConnection(device, options, resources.completions,
            resources.local, resources.remote, queuePair, peer);
        connection.nowNanos = System.nanoTime();
        connection.lastReceivedNanos = connection.nowNanos;
        connection.lastSentNanos = connection.nowNanos;
        connection.receivesToRepost = RECEIVE_DEPTH;
        connection.repostReceives();
        return connection;
    }

    // ------------------------------------------------------------------------------------------------ handshake

    /** @return this side's handshake: its settings and the receive region it offers the peer */
    private static byte[] handshake(final ProtocolOptions options, final MemoryRegion receiveRegion) {
        final byte[] privateData = new byte[HandshakeFlyweight.LENGTH];
        new HandshakeFlyweight().wrap(new UnsafeBuffer(privateData), 0).write(options.maxStreams(),
            options.ringCapacity(), options.maxMessageLength(), receiveRegion.rkey(), receiveRegion.address(),
            receiveRegion.length());
        return privateData;
    }

    /**
     * The listener's check of a client's proposal: a well-formed handshake ({@link HandshakeFlyweight#validate}) that
     * asks for no more stream slots and no larger rings than this side allows.
     *
     * @param proposal wrapped around the private data when it is a well-formed handshake
     * @return null if acceptable, else the reason (for both sides)
     */
    /** @return this side's authenticated handshake: its settings, AUTH, a nonce; no keys (and no MAC yet) */
    private static byte[] authenticatedHandshake(final ProtocolOptions options, final byte[] nonce) {
        final byte[] privateData = new byte[HandshakeFlyweight.AUTH_LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(privateData);
        new HandshakeFlyweight().wrap(buffer, 0).write(options.maxStreams(), options.ringCapacity(),
            options.maxMessageLength(), 0, 0, 0);
        buffer.putShort(HandshakeFlyweight.FLAGS_OFFSET, (short) HandshakeFlyweight.FLAG_AUTH,
            HandshakeFlyweight.BYTE_ORDER);
        System.arraycopy(nonce, 0, privateData, HandshakeFlyweight.AUTH_NONCE_OFFSET, nonce.length);
        return privateData;
    }

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

    /** @return the stream of that slot; 0 is the control stream, which the driver owns */
    public ProtocolStream stream(final int id) {
        if (id <= 0 || id >= maxStreams) {
            throw new IllegalArgumentException("stream " + id + " is not a data stream of this connection (1 to "
                + (maxStreams - 1) + ")");
        }
        return streams[id];
    }

    /** @return the stream of any slot, the control stream (0) included: for the driver's package and its tests */
    ProtocolStream slot(final int id) {
        return streams[id];
    }

    /** Tells {@code listener} about stream activity from now on (on the driver thread). */
    public void activity(final StreamActivity listener) {
        this.activity = listener;
    }

    /** @return the settings both sides agreed on */
    public ProtocolOptions options() {
        return options;
    }

    /** @return why the connection ended with an error, or null */
    public String error() {
        return error;
    }

    /** @return true once the connection ended: with an error, closed by this side, or closed by the peer */
    public boolean isTerminated() {
        return error != null || closed || peerClosed;
    }

    /** @return why the connection ended, in words: its error, or who closed it; null while it is up */
    public String endReason() {
        if (error != null) {
            return error;
        }
        if (peerClosed) {
            return "the peer closed the connection"
                + (peerClosingReason == null || peerClosingReason.isBlank() ? "" : " (" + peerClosingReason + ")");
        }
        return closed ? "the connection was closed" : null;
    }

    /**
     * @return true when everything committed on every stream has been posted and its writes have completed: closing
     * now loses nothing this side sent
     */
    public boolean isFlushed() {
        for (final ProtocolStream stream : streams) {
            if (!stream.sendRing().isFlushed()) {
                return false;
            }
        }
        return true;
    }

    /** @return the queue pair, for matching the device's connection events */
    public QueuePair queuePair() {
        return queuePair;
    }

    /** A connection event of the device concerns this connection: it ends. */
    public void onEvent(final ConnectionEvent event) {
        switch (event.type()) {
            case DISCONNECTED -> {
                if (error == null) {
                    if (CheckedWord.read(lines, ConnectionLayout.GOODBYE_OFFSET) == GOODBYE) {
                        // on purpose: not an error of the connection (streams it cut short fail); the end becomes
                        // visible once the completions of what the peer wrote before are all taken, in doWork
                        peerClosing = true;
                        peerClosingReason = event.reason();
                    } else {
                        // no goodbye: it failed, or its process died (on verbs the kernel disconnects for it)
                        fail("the peer went away without closing the connection: " + event.reason());
                    }
                }
            }
            case PEER_LOST -> fail("the peer was lost: " + event.reason());
            case QUEUE_PAIR_ERROR -> fail("the connection failed: " + event.reason());
        }
    }

    // ------------------------------------------------------------------------------------------------ duty cycle

    /**
     * One duty cycle.
     *
     * @param now {@link System#nanoTime()}
     * @return how much work was done (0 when idle)
     */
    public int doWork(final long now) {
        final int work = dutyCycle(now);
        activity.onPolled();
        return work;
    }

    private int dutyCycle(final long now) {
        if (isTerminated()) {
            if (!terminationReported) {
                terminationReported = true;
                activity.onTerminated();
                return 1;
            }
            return 0;
        }
        nowNanos = now;
        forgiveOwnPause(now);
        int work = completions.poll(this, COMPLETIONS_PER_POLL);
        if (work < 0) {
            fail("the completion queue overflowed");
            return 0;
        }
        if (peerClosing) {
            // the peer's last writes completed before its disconnect was seen: take them all, then end
            int more;
            while ((more = completions.poll(this, COMPLETIONS_PER_POLL)) > 0) {
                work += more;
            }
            drainControl();
            peerClosed = true;
            return work + 1;
        }
        if (isTerminated()) {
            return work;
        }
        if (flushedSinceNanos != 0) {
            if (now - flushedSinceNanos > options.keepaliveInterval().toNanos()) {
                fail(flushReason); // no event explained it
            }
            return work;
        }
        work += drainControl();
        for (int s = 0; s < maxStreams; s++) { // the control stream too: a corrupted one would stall every stream
            if (streams[s].receiveRing().isCorrupted()) {
                fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " on stream " + s
                    + " (a checked frame changed before it was read)");
                return work;
            }
        }
        activity.onPolled(); // the streams drain what arrived and commit their answers, posted below
        if (receivesToRepost >= RECEIVE_DEPTH / 4) {
            repostReceives();
            work++;
        }
        work += sendControl();
        sends.clear();
        work += sendData();
        work += returnCredit();
        if (grantPending && room(1)) {
            CheckedWord.write(staging, ConnectionLayout.GRANT_OFFSET, receivesPosted);
            addWrite(KIND_GRANT | (sendsAdded & POSITION_MASK),
                staging.addressOffset() + ConnectionLayout.GRANT_OFFSET, CheckedWord.LENGTH,
                ConnectionLayout.lineOffset(0, maxStreams, ringCapacity) + ConnectionLayout.GRANT_OFFSET);
            grantPending = false;
        }
        if (sends.count() > 0) {
            final int status = queuePair.postSend(sends);
            if (status != PostStatus.OK) {
                fail("posting to the queue pair failed: " + PostStatus.name(status));
                return work;
            }
        }
        keepAlive(now);
        return work;
    }

    private int sendData() {
        final long grant = CheckedWord.read(lines, ConnectionLayout.GRANT_OFFSET);
        if (grant != CheckedWord.TORN) { // torn: caught mid-write, the grant stays as it was until the next cycle
            if (grant < grantFromPeer) {
                fail(ProtocolError.describe(ProtocolError.CREDIT_BACKWARDS) + " (its receive grant)");
                return 0;
            }
            grantFromPeer = grant;
        }
        int work = 0;
        for (int s = 0; s < maxStreams; s++) {
            final StreamSendRing ring = streams[s].sendRing();
            final long creditBefore = ring.creditedPosition();
            final int credit = ring.refreshCredit();
            if (credit != ProtocolError.NONE) {
                fail(ProtocolError.describe(credit) + " on stream " + s);
                return work;
            }
            if (s > 0 && ring.creditedPosition() != creditBefore) {
                activity.onProducerReady(s);
            }
            final long producer = ring.producerPosition();
            final long sent = ring.sentPosition();
            if (producer == sent || immediatesPosted >= grantFromPeer || !room(2)) {
                continue;
            }
            final long ringBase = ConnectionLayout.ringOffset(s, ringCapacity);
            final int index = (int) (sent & (ringCapacity - 1));
            final int pending = (int) (producer - sent);
            final int first = Math.min(pending, ringCapacity - index);
            if (first < pending) {
                addWrite(KIND_DATA | ((long) s << 48) | ((sent + first) & POSITION_MASK),
                    local.address() + ringBase + index, first, ringBase + index);
                addWriteWithImmediate(s, producer, local.address() + ringBase, pending - first, ringBase, pending);
            } else {
                addWriteWithImmediate(s, producer, local.address() + ringBase + index, first, ringBase + index,
                    pending);
            }
            ring.sentTo(producer);
            immediatesPosted++;
            lastSentNanos = nowNanos; // only writes with an immediate tell the peer this side is alive
            work++;
        }
        return work;
    }

    private int returnCredit() {
        int work = 0;
        for (int s = 0; s < maxStreams && room(1); s++) {
            final long consumed = streams[s].receiveRing().creditToReturn();
            if (consumed >= 0) {
                final int line = s * ConnectionLayout.LINE;
                CheckedWord.write(staging, line + ConnectionLayout.CONSUMED_OFFSET, consumed);
                addWrite(KIND_CREDIT | ((long) s << 48) | (sendsAdded & POSITION_MASK),
                    staging.addressOffset() + line, CheckedWord.LENGTH,
                    ConnectionLayout.lineOffset(s, maxStreams, ringCapacity) + ConnectionLayout.CONSUMED_OFFSET);
                work++;
            }
        }
        return work;
    }

    private boolean room(final int requests) {
        return outstandingSends + requests <= maxOutstandingSends && sends.count() + requests <= sends.capacity();
    }

    private void addWrite(final long wrId, final long localAddress, final int length, final long remoteOffset) {
        sends.add(wrId, WorkRequestOpcode.RDMA_WRITE, length <= CheckedWord.LENGTH ? SendFlags.INLINE : 0)
            .sge(localAddress, length, local.lkey())
            .remote(peerAddress + remoteOffset, peerRkey);
        sendIdsDue[(int) (sendsAdded++ & (sendIdsDue.length - 1))] = wrId;
        outstandingSends++;
    }

    private void addWriteWithImmediate(final int stream, final long endPosition, final long localAddress,
                                       final int length, final long remoteOffset, final int advance) {
        sends.add(KIND_DATA | ((long) stream << 48) | (endPosition & POSITION_MASK),
                WorkRequestOpcode.RDMA_WRITE_WITH_IMM, 0)
            .sge(localAddress, length, local.lkey())
            .remote(peerAddress + remoteOffset, peerRkey)
            .immediate(ImmediateCodec.encode(stream, advance));
        sendIdsDue[(int) (sendsAdded++ & (sendIdsDue.length - 1))] = KIND_DATA | ((long) stream << 48)
            | (endPosition & POSITION_MASK);
        outstandingSends++;
    }

    private void repostReceives() {
        receives.clear();
        for (int i = 0; i < receivesToRepost; i++) {
            receives.add(receivesPosted + i); // zero-length: a receive only absorbs an immediate
        }
        final int status = queuePair.postReceive(receives);
        if (status != PostStatus.OK) {
            fail("posting receives failed: " + PostStatus.name(status));
            return;
        }
        receivesPosted += receivesToRepost;
        receivesToRepost = 0;
        grantPending = true;
    }

    private int drainControl() {
        int frames = 0;
        final StreamReceiveRing control = streams[CONTROL_STREAM].receiveRing();
        while (!isTerminated() && control.poll(controlConsumer)) {
            frames++;
        }
        return frames;
    }

    /**
     * A frame of the control stream (driver thread): checked again on a copy, as the peer can rewrite its ring at any
     * time, then read through its flyweight. A frame that fails its check, or asks for a use of a stream that has not
     * begun, ends the connection.
     */
    private void onControlFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                                final byte flags) {
        final int frameLength = length + HEADER_LENGTH;
        controlFrame.putBytes(0, buffer, index - HEADER_LENGTH, Math.min(frameLength, controlFrame.capacity()));
        final int code = StreamReceiveRing.checkBody(controlFrame, 0, frameLength, type, CONTROL_STREAM, maxStreams);
        if (code != FrameCheck.OK) {
            fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED, code) + " on the control stream (frame type "
                + type + ")");
            return;
        }
        switch (type) {
            case FrameHeaderFlyweight.REQUEST_N -> {
                requestNIn.wrap(controlFrame, 0);
                final int stream = requestNIn.streamId();
                if (!streams[stream].onPeerRequest(requestNIn.use(), requestNIn.n())) {
                    failUse("REQUEST_N", stream, requestNIn.use());
                    return;
                }
                activity.onProducerReady(stream);
            }
            case FrameHeaderFlyweight.CANCEL -> {
                cancelIn.wrap(controlFrame, 0);
                final int stream = cancelIn.streamId();
                if (!streams[stream].onPeerCancel(cancelIn.use())) {
                    failUse("CANCEL", stream, cancelIn.use());
                    return;
                }
                activity.onProducerReady(stream);
            }
            default -> {
                // KEEPALIVE: its arrival is what counts (checkBody let no other type through)
            }
        }
    }

    private void failUse(final String frame, final int stream, final int use) {
        fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED, FrameCheck.BAD_USE) + " on the control stream ("
            + frame + " for use " + use + " of stream " + stream + ", which is at use " + streams[stream].use() + ")");
    }

    /** Writes the consumers' requests and cancels into the control stream, as the driver owns it. */
    private int sendControl() {
        int frames = 0;
        final StreamSendRing control = streams[CONTROL_STREAM].sendRing();
        for (int s = 1; s < maxStreams; s++) {
            final ProtocolStream stream = streams[s];
            if (stream.consumerError() != null) {
                fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " on stream " + s + ": "
                    + stream.consumerError());
                return frames;
            }
            if (!stream.takeControl()) {
                continue;
            }
            final long n = stream.takenRequest;
            final boolean cancel = stream.takenCancel;
            final int use = stream.takenUse;
            if (n > 0) {
                final int index = control.claim(RequestNFlyweight.LENGTH - HEADER_LENGTH);
                if (index < 0) {
                    stream.returnControl(n, cancel, use); // the control ring is full: next duty cycle
                    return frames;
                }
                requestNOut.wrap(control.buffer(), index - HEADER_LENGTH).write(s, use, n);
                control.commit(FrameHeaderFlyweight.REQUEST_N, (byte) 0);
                frames++;
            }
            if (cancel) {
                final int index = control.claim(StreamControlFlyweight.LENGTH - HEADER_LENGTH);
                if (index < 0) {
                    stream.returnControl(0, true, use);
                    return frames;
                }
                cancelOut.wrap(control.buffer(), index - HEADER_LENGTH).write(FrameHeaderFlyweight.CANCEL, s, use);
                control.commit(FrameHeaderFlyweight.CANCEL, (byte) 0);
                frames++;
            }
        }
        return frames;
    }

    /**
     * A gap of more than half the liveness timeout since this side's last duty cycle was this side's own pause (a
     * stop-the-world collection, a stopped process, a stalled virtual machine): the peer's silence over that time is
     * not held against it, or every connection would end after a long enough pause of this side alone. An idle
     * strategy parks for at most a second, far less than half the default timeout of 5 s.
     */
    private void forgiveOwnPause(final long now) {
        final long gap = now - lastCycleNanos;
        if (lastCycleNanos != 0 && gap > options.livenessTimeout().toNanos() / 2) {
            lastReceivedNanos += gap;
        }
        lastCycleNanos = now;
    }

    private void keepAlive(final long now) {
        if (now - lastReceivedNanos > options.livenessTimeout().toNanos()) {
            fail("no word from the peer for " + (now - lastReceivedNanos) / 1_000_000 + " ms (liveness timeout "
                + options.livenessTimeout().toMillis() + " ms): it is dead or stuck");
            return;
        }
        if (now - lastSentNanos > options.keepaliveInterval().toNanos()) {
            final StreamSendRing control = streams[CONTROL_STREAM].sendRing();
            final int index = control.claim(KeepaliveFlyweight.LENGTH - HEADER_LENGTH);
            if (index >= 0) {
                keepaliveOut.wrap(control.buffer(), index - HEADER_LENGTH)
                    .write(now, streams[CONTROL_STREAM].receiveRing().receivedPosition());
                control.commit(FrameHeaderFlyweight.KEEPALIVE, (byte) 0);
            }
            lastSentNanos = now;
        }
    }

    @Override
    public void onCompletion(final Completion completion) {
        if (completion.status() == CompletionStatus.WR_FLUSH_ERR) {
            // the queue pair already failed: the device's event says why (a disconnect is no error), so wait for it
            if (flushedSinceNanos == 0) {
                flushedSinceNanos = nowNanos;
                flushReason = "work requests were flushed: " + queuePair.errorReason();
            }
            return;
        }
        if (!completion.isSuccess()) {
            fail("a work request failed with " + CompletionStatus.name(completion.status()) + ": "
                + CompletionStatus.explain(completion.status()) + (queuePair.errorReason() != null
                ? " (" + queuePair.errorReason() + ")" : ""));
            return;
        }
        if (completion.isReceive()) {
            if (completion.wrId() != receivesCompleted) {
                failOrder("receive", completion.wrId(), receivesCompleted);
                return;
            }
            receivesCompleted++;
            lastReceivedNanos = nowNanos;
            receivesToRepost++;
            final int immediate = completion.immediate();
            final int stream = ImmediateCodec.streamId(immediate);
            if (stream >= maxStreams) {
                fail(ProtocolError.describe(ProtocolError.UNKNOWN_STREAM) + " (" + stream + ")");
                return;
            }
            final StreamReceiveRing ring = streams[stream].receiveRing();
            final int code = ring.onAdvance(ImmediateCodec.advance(immediate));
            if (code != ProtocolError.NONE) {
                fail(ProtocolError.describe(code, ring.frameCheck()) + " on stream " + stream);
            } else if (stream > 0) {
                activity.onFramesArrived(stream);
            }
            return;
        }
        final long wrId = completion.wrId();
        final long due = sendIdsDue[(int) (sendsCompleted & (sendIdsDue.length - 1))];
        if (sendsCompleted == sendsAdded || wrId != due) {
            failOrder("send", wrId, sendsCompleted == sendsAdded ? -1 : due);
            return;
        }
        sendsCompleted++;
        outstandingSends--;
        if ((wrId & KIND_MASK) == KIND_DATA) {
            final int stream = (int) (wrId >>> 48) & 0x3FFF;
            final StreamSendRing ring = streams[stream].sendRing();
            final long sent = ring.sentPosition();
            // rebuild the 64-bit position from its low 48 bits, near what was sent
            final long position = (sent & ~POSITION_MASK) | (wrId & POSITION_MASK);
            ring.completedTo(position > sent ? position - (1L << 48) : position);
            if (stream > 0) {
                activity.onProducerReady(stream);
            }
        }
    }

    private void failOrder(final String queue, final long wrId, final long due) {
        fail("a completion was lost or came out of order: the " + queue + " completion of work request 0x"
            + Long.toHexString(wrId) + " arrived where " + (due < 0 ? "none" : "0x" + Long.toHexString(due))
            + " was due (a reliable connection completes each queue's work in order; the provider or adapter failed)");
    }

    /** Ends the connection with an error; the first reason wins. */
    void fail(final String reason) {
        if (error == null && !closed) {
            readLastCredit(); // before the error shows: a sender that sees the end sees the peer's last credit too
            error = reason;
            queuePair.disconnect();
        }
    }

    /** Releases the queue pair, the regions and the completion queue. Call it on the driver thread, or after it. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (error == null) {
            returnLastCredit();
            readLastCredit();
        }
        closed = true;
        if (!terminationReported) {
            terminationReported = true;
            activity.onTerminated();
        }
        queuePair.close();
        completions.close();
        local.close();
        remote.close();
    }

    /**
     * Tells the peer, one last time, how far this side consumed: its sender learns that everything it sent, the end
     * of its stream included, arrived, even when this side closes right after consuming it.
     */
    private void returnLastCredit() {
        sends.clear();
        returnCredit();
        if (room(1)) {
            CheckedWord.write(staging, ConnectionLayout.GOODBYE_OFFSET, GOODBYE);
            addWrite(KIND_GRANT | (sendsAdded & POSITION_MASK),
                staging.addressOffset() + ConnectionLayout.GOODBYE_OFFSET, CheckedWord.LENGTH,
                ConnectionLayout.lineOffset(0, maxStreams, ringCapacity) + ConnectionLayout.GOODBYE_OFFSET);
        }
        if (sends.count() > 0 && queuePair.postSend(sends) == PostStatus.OK) {
            // an adapter moves the bytes after the post: wait (briefly) until they landed, so that the disconnect
            // cannot overtake them and the peer reads this goodbye before it sees the disconnect
            final long deadline = System.nanoTime() + GOODBYE_WAIT_NANOS;
            while (outstandingSends > 0 && error == null && System.nanoTime() < deadline) {
                if (completions.poll(this, COMPLETIONS_PER_POLL) == 0) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    /**
     * Reads the peer's credit once more as the connection ends (the peer writes it before it disconnects), so that
     * a sender learns whether everything it sent was consumed. Called before the end becomes visible ({@link #error}
     * or {@link #closed} written), on the driver thread. Errors in it no longer matter.
     */
    private void readLastCredit() {
        for (final ProtocolStream stream : streams) {
            stream.sendRing().refreshCredit();
        }
    }

    @Override
    public String toString() {
        return "ProtocolConnection{" + queuePair.peerDescription() + (error != null ? ", error=" + error : "")
            + (closed ? ", closed" : "") + '}';
    }

    /** The per-connection resources, released together if setup fails. */
    private record Resources(CompletionQueue completions, MemoryRegion local, MemoryRegion remote) {
        static Resources allocate(final RdmaDevice device, final ProtocolOptions options) {
            MemoryRegion local = null;
            MemoryRegion remote = null;
            CompletionQueue completions = null;
            try {
                local = device.allocateRegion(options.localRegionLength(), Access.LOCAL_WRITE);
                remote = device.allocateRegion(options.remoteRegionLength(), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
                completions = device.createCompletionQueue(sendDepth(options.maxStreams()) + RECEIVE_DEPTH + 16);
                return new Resources(completions, local, remote);
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
            return QueuePairOptions.builder(completions, completions).sendDepth(sendDepth(options.maxStreams()))
                .receiveDepth(RECEIVE_DEPTH).maxSendSge(1).maxReceiveSge(1).maxInlineData(64).signalAll(true)
                .rnrRetries(0);
        }

        void close() {
            completions.close();
            remote.close();
            local.close();
        }
    }
}
