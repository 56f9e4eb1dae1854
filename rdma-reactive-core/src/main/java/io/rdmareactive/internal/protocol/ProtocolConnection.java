package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionHandler;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.ProtectionDomain;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.RdmaDevice;
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
 * <p>It composes its parts, each with one role, and its duty cycle calls them in this order: {@code CompletionOrder}
 * takes the completions in the order their work was posted; {@code PublishedPositions} reads what a peer with direct
 * access published; {@code ControlStream} reads the control stream; {@code CorruptionCheck} ends the connection on a
 * checked frame rewritten; the {@code WatchSet} takes the streams' marks; {@code ControlStream} writes the consumers'
 * requests; {@code Posting} turns committed frames and credit into work requests; {@code Parking} maps the peer's
 * doorbell; the {@code WatchSet} keeps the streams with work; {@code Liveness} keeps the connection alive or declares
 * the peer dead. Out of the cycle, {@code Parking} decides whether the loop may stop polling the connection, and
 * {@code Goodbye} is what the connection tells its peer as it ends. The connection keeps the state of its end (its
 * error, who closed it) and its face to the layers above.
 *
 * <p>Application threads use {@link #stream(int)}: one producer and one consumer per stream.
 */
public final class ProtocolConnection implements AutoCloseable, CompletionHandler {

    static final int RECEIVE_DEPTH = 256;
    static final int COMPLETIONS_PER_POLL = 64;

    private final RdmaDevice device;
    /** The connection's own protection domain: its regions and queue pair are in it, no other connection's. */
    private final ProtectionDomain domain;
    private final ProtocolOptions options;
    private final int maxStreams;
    private final CompletionQueue completions;
    private final MemoryRegion local;
    private final MemoryRegion remote;
    private final QueuePair queuePair;
    private final ProtocolStream[] streams;
    private final AtomicBuffer lines;
    private final ControlStream control;
    /** The peer may publish data straight into this side's rings: poll the published positions. */
    private final boolean pollPublished;
    private final Liveness liveness;
    /** Takes the completions, in the order their work was posted. */
    private final CompletionOrder completionOrder;
    /** Direct peer access: the positions the peer published into this side's rings. */
    private final PublishedPositions published;
    /** Ends the connection when a consumer found a checked frame rewritten. */
    private final CorruptionCheck corruption;
    /** The streams the loop looks at in this duty cycle. */
    private final WatchSet watch;
    /** Turns committed frames and credit into work requests. */
    private final Posting posting;
    /** The doorbells both ways, and whether the loop may stop polling the connection. */
    private final Parking parking;
    /** What this side tells the peer as it ends, and what it had not delivered. */
    private final Goodbye goodbye;
    /** The application's one-sided operations on the peer's memory. */
    private final OneSidedQueue oneSided;
    /** Names this side's end of the connection in its region descriptors; {@link #peerToken} the peer's. */
    private final long token;
    private final long peerToken;
    /** The generations of the regions this side closed, to announce to the peer (loop only). */
    private final org.agrona.collections.IntArrayQueue regionsClosed = new org.agrona.collections.IntArrayQueue();
    /** The streams producers and consumers touched: a one-sided submission marks the control stream. */
    private final StreamMarks marks;

    // the state of the connection and its end: the parts read the package-private fields; CompletionOrder sets flushes

    /** When this duty cycle began ({@link System#nanoTime()}): the parts tell liveness of words sent and received. */
    long nowNanos;
    private volatile String error;
    private volatile boolean closed;
    volatile boolean peerClosed;
    /** The peer disconnected on purpose; what it wrote before may still wait in the completion queue (driver). */
    boolean peerClosing;
    /** What the provider said of the peer's disconnect: on verbs, it cannot tell a close from a process that died. */
    private String peerClosingReason;
    /** When a completion said the queue pair flushed its work, or 0: the device's event is to say why (driver). */
    long flushedSinceNanos;
    String flushReason;
    volatile StreamActivity activity = StreamActivity.NONE;
    private boolean terminationReported;

    private ProtocolConnection(final RdmaDevice device, final ProtocolOptions options, final CompletionQueue completions,
                               final MemoryRegion local, final MemoryRegion remote, final ProtectionDomain domain,
                               final QueuePair queuePair, final HandshakeFlyweight peer, final boolean direct) {
        this.device = device;
        this.domain = domain;
        this.pollPublished = direct;
        this.options = options;
        this.maxStreams = options.maxStreams();
        final int ringCapacity = options.ringCapacity();
        this.completions = completions;
        this.local = local;
        this.remote = remote;
        this.queuePair = queuePair;
        final long peerAddress = peer.receiveRegionAddress();
        final int peerRkey = peer.receiveRegionRkey();
        final long linesOffset = ConnectionLayout.lineOffset(0, maxStreams, ringCapacity);
        this.lines = new UnsafeBuffer(remote.address() + linesOffset, maxStreams * ConnectionLayout.LINE);
        final AtomicBuffer staging = new UnsafeBuffer(local.address() + linesOffset,
            maxStreams * ConnectionLayout.LINE);
        // direct peer access: the data streams write straight into the peer's receive rings, mapped here
        final long peerBase = direct ? queuePair.peerMemoryAddress(peerAddress, peer.receiveRegionLength(), peerRkey)
            : 0;
        this.streams = new ProtocolStream[maxStreams];
        this.control = new ControlStream(this, streams);
        this.liveness = new Liveness(options);
        // the streams producers and consumers touched since the loop last looked
        final StreamMarks marks = new StreamMarks(maxStreams);
        this.marks = marks;
        this.token = token(remote.address(), remote.rkey());
        this.peerToken = token(peerAddress, peerRkey);
        this.watch = new WatchSet(marks, streams);
        final long[] active = watch.active;
        // direct: the peer's look-flag is line 0's published word (the control stream is never published)
        final AtomicBuffer peerLines = peerBase == 0 ? null
            : new UnsafeBuffer(peerBase + linesOffset, maxStreams * ConnectionLayout.LINE);
        final PeerDoorbell peerDoorbell = peerBase == 0 ? null
            : new PeerDoorbell(new UnsafeBuffer(peerLines, ConnectionLayout.LOOK_FLAG_OFFSET, Long.BYTES));
        for (int s = 0; s < maxStreams; s++) {
            final long ring = ConnectionLayout.ringOffset(s, ringCapacity);
            final UnsafeBuffer creditLine = new UnsafeBuffer(lines, s * ConnectionLayout.LINE, ConnectionLayout.LINE);
            final StreamSendRing sendRing = s > 0 && peerBase != 0
                ? new StreamSendRing(new UnsafeBuffer(peerBase + ring, ringCapacity), creditLine,
                    new UnsafeBuffer(peerBase + linesOffset + (long) s * ConnectionLayout.LINE
                        + ConnectionLayout.PUBLISHED_OFFSET, Long.BYTES), peerDoorbell, marks, s)
                : new StreamSendRing(new UnsafeBuffer(local.address() + ring, ringCapacity), creditLine, marks, s);
            streams[s] = new ProtocolStream(s, maxStreams, sendRing,
                new StreamReceiveRing(new UnsafeBuffer(remote.address() + ring, ringCapacity), s, maxStreams), marks);
        }
        this.posting = new Posting(this, queuePair, local, peer, lines, staging, streams, active, liveness,
            peerDoorbell, peerLines, ringCapacity);
        this.oneSided = new OneSidedQueue(this, domain, sendDepth(maxStreams) - 4);
        this.completionOrder = new CompletionOrder(this, queuePair, streams, active, liveness, posting, oneSided);
        this.corruption = new CorruptionCheck(this, streams, active);
        this.published = new PublishedPositions(this, lines, streams, ringCapacity, active, liveness);
        this.parking = new Parking(this, domain, queuePair, lines, marks, liveness, posting, active, direct,
            peerDoorbell, peerLines);
        this.goodbye = new Goodbye(this, completions, completionOrder, queuePair, posting, streams, ringCapacity);
    }

    /**
     * @return a connection's token: its receive region's address and key mixed, which both sides know from the
     *     handshake and which differ between the connections of one process
     */
    private static long token(final long address, final int key) {
        long mixed = address * 0x9E3779B97F4A7C15L ^ (key & 0xFFFF_FFFFL) * 0xC2B2AE3D27D4EB4FL;
        mixed ^= mixed >>> 31;
        return mixed == 0 ? 1 : mixed;
    }

    /** @return the send queue depth of a connection of that many streams */
    static int sendDepth(final int maxStreams) {
        return 8 * maxStreams + 64;
    }

    /**
     * Starts a connection whose handshake succeeded ({@link ConnectionEstablishment}): its receives are posted, its
     * liveness clock runs from now.
     *
     * @param direct both sides agreed on direct peer access ({@link HandshakeFlyweight#FLAG_DIRECT}): this side polls
     *               the positions the peer publishes into its lines, and writes its own data streams straight into
     *               the peer's rings where its queue pair maps them
     */
    static ProtocolConnection start(final RdmaDevice device, final ProtocolOptions options,
                                    final CompletionQueue completions, final MemoryRegion local,
                                    final MemoryRegion remote, final ProtectionDomain domain,
                                    final QueuePair queuePair, final HandshakeFlyweight peer, final boolean direct) {
        final ProtocolConnection connection = new ProtocolConnection(device, options, completions, local, remote,
            domain, queuePair, peer, direct);
        connection.nowNanos = System.nanoTime();
        connection.liveness.start(connection.nowNanos);
        connection.posting.start();
        return connection;
    }

    /**
     * Shows every frame this connection sends and receives, on every stream, the control stream's included, to
     * {@code tap} (a wiretap). Call it once, before the connection is handed to its loop and to any producer or
     * consumer: the rings read it without a fence.
     */
    public void tap(final FrameTap tap) {
        java.util.Objects.requireNonNull(tap, "tap");
        for (final ProtocolStream stream : streams) {
            stream.sendRing().tap(tap);
            stream.receiveRing().tap(tap);
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

    // ------------------------------------------------------------------------------------------------ one-sided

    /** @return the token that names this side's end of the connection in the descriptors of its regions */
    public long token() {
        return token;
    }

    /** @return the token the peer's descriptors carry: a descriptor with another came from another connection */
    public long peerToken() {
        return peerToken;
    }

    /** @return true if the connection's device runs 64-bit atomics on a peer's memory */
    public boolean supportsAtomics() {
        return device.capabilities().contains(io.rdmareactive.spi.DeviceCapability.ATOMICS);
    }

    /** @return the one-sided operations the connection keeps in flight at most */
    public int maxOneSidedInFlight() {
        return oneSided.maxInFlight();
    }

    /**
     * Registers memory in the connection's own protection domain, so that the peer reaches it through this connection
     * alone, with the access given (any thread).
     */
    public MemoryRegion registerForPeer(final io.rdmareactive.ring.OffHeapMemory memory, final int access) {
        return domain.register(memory, access);
    }

    /** @return page-aligned memory of the connection's device, registered in the device's domain for local use only */
    public MemoryRegion allocateMemory(final long length) {
        return device.allocateRegion(length, io.rdmareactive.spi.Access.LOCAL_WRITE);
    }

    /**
     * Takes a one-sided operation, posted in this or the next duty cycle (loop only).
     *
     * @return {@code OK} (0), {@code FULL} (1) when {@link OneSidedQueue#CAPACITY} operations wait or are in flight,
     *     {@code ENDED} (2) when the connection ended
     */
    public int submitOneSided(final OneSidedOperation operation) {
        final int status = oneSided.submit(operation);
        if (status == OneSidedQueue.OK) {
            marks.mark(ProtocolStream.CONTROL_STREAM); // a parked connection is polled again
        }
        return status;
    }

    /**
     * A region this side registered on the connection was closed and deregistered (loop): the peer is told, so that it
     * refuses its later operations on it itself rather than have this side's adapter refuse them.
     */
    public void regionClosed(final int generation) {
        if (!isTerminated()) {
            regionsClosed.addInt(generation);
            marks.mark(ProtocolStream.CONTROL_STREAM);
        }
    }

    /**
     * The connection ended (loop): the completions already in the queue are taken first, so that an operation the
     * adapter failed (the error that ended the connection, often) hears its own status; the others fail with the end.
     */
    private void endOneSided() {
        if (oneSided.isBusy()) {
            while (completions.poll(completionOrder, COMPLETIONS_PER_POLL) > 0) {
                // recorded by the queue; the connection has ended, so nothing else follows from them
            }
        }
        oneSided.failAll(endReason());
    }

    /**
     * @return true while a one-sided operation waits, is in flight or has an outcome to deliver, or a closed region
     *     waits to be announced (loop)
     */
    boolean hasOneSidedWork() {
        return oneSided.isBusy() || !regionsClosed.isEmpty();
    }

    /** @return true if this side's data streams write straight into the peer's rings (direct peer access) */
    public boolean sendsDirect() {
        return maxStreams > 1 && streams[1].sendRing().isDirect();
    }

    /** @return the lines the peer writes into (credit, grant, goodbye, published positions): for tests of this package */
    AtomicBuffer peerWrittenLines() {
        return lines;
    }

    /** @return the stream of any slot, the control stream (0) included: for the driver's package and its tests */
    ProtocolStream slot(final int id) {
        return streams[id];
    }

    /** @return who is told about stream activity */
    StreamActivity activity() {
        return activity;
    }

    /** Tells {@code listener} about stream activity from now on (on the connection's loop). */
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
        return goodbye.isFlushed();
    }

    /**
     * A graceful close that waited as long as it may (loop): what was committed and is not confirmed in the peer's
     * memory ends the connection with an error that names it, so that the close does not report success while the
     * messages an API call reported sent are lost.
     *
     * @param waitedMillis how long the close waited for the flush
     */
    public void closingUnflushed(final long waitedMillis) {
        final String undelivered = goodbye.undelivered();
        if (undelivered != null && error == null) {
            error = "closed with " + undelivered + " that did not reach the peer's memory within " + waitedMillis
                + " ms (the liveness timeout): the peer took no more (it stopped, or its consumer did); those messages "
                + "are lost";
        }
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
                    if (CheckedWord.read(lines, ConnectionLayout.GOODBYE_OFFSET) == Goodbye.GOODBYE) {
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
                endOneSided();
                activity.onTerminated();
                return 1;
            }
            return 0;
        }
        nowNanos = now;
        liveness.forgiveOwnPause(now);
        int work = completions.poll(completionOrder, COMPLETIONS_PER_POLL);
        if (work < 0) {
            fail("the completion queue overflowed");
            return 0;
        }
        if (peerClosing) {
            // the peer's last writes completed before its disconnect was seen: take them all, then end
            int more;
            while ((more = completions.poll(completionOrder, COMPLETIONS_PER_POLL)) > 0) {
                work += more;
            }
            if (pollPublished) {
                work += published.pollPublished(PublishedPositions.ALL);
            }
            control.drain();
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
        final long look = pollPublished ? published.lookDue(now) : 0;
        if (look != 0) {
            work += published.look(look, now);
            if (isTerminated()) {
                return work;
            }
        }
        watch.takeMarks();
        work += control.drain(); // two reads when nothing arrived: a test or a peer may advance it without a completion
        if (corruption.checkCorruption()) {
            return work;
        }
        work += oneSided.deliver(); // their subscribers may submit more, posted below
        activity.onPolled(); // the streams drain what arrived and commit their answers, posted below
        watch.takeMarks();
        work += posting.repostReceivesIfDue();
        work += control.send(watch.active);
        if (!regionsClosed.isEmpty()) {
            work += control.sendRegionsClosed(regionsClosed);
        }
        watch.takeMarks(); // the control stream's own frames
        posting.clear();
        work += posting.sendData();
        work += oneSided.post(posting);
        work += posting.returnCredit();
        work += posting.grant();
        if (!posting.post()) {
            return work;
        }
        parking.tryMapPeerDoorbell();
        watch.keepWatching();
        final String silence = liveness.check(now);
        if (silence != null) {
            fail(silence);
            return work;
        }
        if (liveness.keepaliveDue(now)) {
            control.keepalive(now); // a full control ring drops this one: the next is due an interval later
            liveness.onSent(now);
        }
        return work;
    }

    // ------------------------------------------------------------------------------------------------ parking

    /**
     * Gives the connection its doorbell in its loop's page (the loop, before it may park it; direct peer access only).
     *
     * @return false if the page could not be registered for it: it has no doorbell then
     */
    public boolean doorbell(final Doorbells doorbells, final int number) {
        return parking.doorbell(doorbells, number);
    }

    /**
     * @return true while the layer above has a stream in use: a send running, a subscriber on an inbound (loop only;
     *     {@link StreamActivity#hasStreamsInUse()})
     */
    public boolean hasStreamsInUse() {
        return activity.hasStreamsInUse();
    }

    /**
     * @return true if the peer published frames this side has not read yet (direct peer access; the loop's last look
     *     before its thread sleeps, loop only)
     */
    public boolean hasUnreadPublished() {
        return pollPublished && !isTerminated() && published.hasUnread();
    }

    /**
     * The loop is about to sleep or park the connection (loop only): asks the connection's completion queue to run the
     * loop's wake-up ({@link #completionWake}) at its next completion, where the provider can
     * ({@link CompletionQueue#armWakeup}).
     *
     * @return true if armed just now: the loop polls once more before it sleeps
     */
    public boolean armWakeup() {
        final Runnable wakeup = completionWake;
        return wakeup != null && !isTerminated() && completions.armWakeup(wakeup);
    }

    /** What the completion queue runs at a completion it was armed for (set by the loop when it takes the connection). */
    private Runnable completionWake;

    /**
     * The loop takes the connection (loop): {@code wakeup} is what a completion this side's queue was armed for runs
     * (it wakes the loop, and rings the connection's doorbell when it has one, bringing a parked connection back).
     */
    public void completionWake(final Runnable wakeup) {
        this.completionWake = wakeup;
    }

    /**
     * @return true if the connection may be parked without a peer that rings it (no direct peer access): its queue
     *     can tell of completions, and everything the peer sends arrives as one (verbs)
     */
    public boolean mayParkOnCompletions() {
        return !pollPublished && completions.canWake();
    }

    /**
     * Gives a connection that parks on its completions a doorbell in its loop's page (loop): this side's producers
     * and consumers ring it while the connection is parked, as does its queue's next completion.
     */
    public void localDoorbell(final Doorbells doorbells, final int number) {
        parking.localDoorbell(doorbells, number);
    }

    /** @return what keeps the connection from being parked now, or null if nothing does (diagnostics, any thread) */
    public String parkingObstacle() {
        return parking.obstacle();
    }

    /** @return true if the connection uses direct peer access, and so may be parked once it has a doorbell */
    public boolean mayUseDoorbell() {
        return parking.mayUseDoorbell();
    }

    /**
     * The loop would stop polling the connection (after duty cycles without work): whether it may, and what polls it
     * again, is {@code Parking.park()}'s.
     *
     * @return true if parked
     */
    public boolean park() {
        return parking.park();
    }

    /** The loop polls the connection again (loop). */
    public void unpark(final long now) {
        parking.unpark(now);
    }

    /** @return when a parked connection must be polled again ({@link System#nanoTime()}): a keepalive, a silence */
    public long wakeDeadline() {
        return parking.wakeDeadline();
    }

    /** @return true if the loop watches stream {@code s}: it looks at it in every cycle, unmarked (for tests) */
    boolean isWatched(final int s) {
        return watch.isActive(s);
    }

    /** A completion of this connection's queue pair, taken in the order its work was posted. */
    @Override
    public void onCompletion(final Completion completion) {
        completionOrder.onCompletion(completion);
    }

    /**
     * The connection's duty cycle, or its loop, threw (the loop caught it): the connection ends with that cause, if it
     * had not ended already. Nothing of the connection's memory is read here: the throw may have come from it.
     *
     * @param what what failed, the start of the reason ("the connection's duty cycle failed")
     */
    public void failed(final String what, final Throwable cause) {
        if (error == null && !closed) {
            error = what + ": " + cause;
            try {
                queuePair.disconnect();
            } catch (final RuntimeException ignored) {
                // the connection has ended all the same; closing it releases the queue pair
            }
        }
    }

    /** Ends the connection with an error; the first reason wins. */
    void fail(final String reason) {
        if (error == null && !closed) {
            // before the error shows: a sender that sees the end sees the peer's last credit too
            goodbye.readLastCredit();
            final String undelivered = goodbye.undelivered();
            // what the API called sent and the peer may never have had: counted, never silently lost
            error = undelivered == null ? reason : reason + "; " + undelivered + " had not been seen to reach the "
                + "peer's memory and may be lost";
            queuePair.disconnect();
        }
    }

    /** Releases the queue pair, the regions, their protection domain and the completion queue. Call it on the connection's loop, or once the loop stopped. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (error == null) {
            goodbye.returnLastCredit();
            goodbye.readLastCredit();
        }
        closed = true;
        if (!terminationReported) {
            terminationReported = true;
            endOneSided();
            activity.onTerminated();
        }
        queuePair.close();
        completions.close();
        local.close();
        remote.close();
        parking.releaseDoorbell();
        domain.close(); // released by the provider once the queue pair and the regions are gone
    }

    @Override
    public String toString() {
        return "ProtocolConnection{" + queuePair.peerDescription() + (error != null ? ", error=" + error : "")
            + (closed ? ", closed" : "") + '}';
    }

}
