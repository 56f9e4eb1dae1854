package io.rdmareactive.internal.protocol;

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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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

    private long nowNanos;
    private long lastReceivedNanos;
    private long lastSentNanos;
    private long receivesPosted;
    private int receivesToRepost;
    private boolean grantPending;
    private long grantFromPeer;
    private long immediatesPosted;
    private int outstandingSends;
    private volatile String error;
    private volatile boolean closed;
    private volatile StreamActivity activity = StreamActivity.NONE;
    private boolean terminationReported;

    private ProtocolConnection(final RdmaDevice device, final ProtocolOptions options, final CompletionQueue completions,
                               final MemoryRegion local, final MemoryRegion remote, final QueuePair queuePair,
                               final Handshake peer) {
        this.device = device;
        this.options = options;
        this.maxStreams = options.maxStreams();
        this.ringCapacity = options.ringCapacity();
        this.completions = completions;
        this.local = local;
        this.remote = remote;
        this.queuePair = queuePair;
        this.peerAddress = peer.regionAddress();
        this.peerRkey = peer.regionRkey();
        final long linesOffset = ConnectionLayout.lineOffset(0, maxStreams, ringCapacity);
        this.lines = new UnsafeBuffer(remote.address() + linesOffset, maxStreams * ConnectionLayout.LINE);
        this.staging = new UnsafeBuffer(local.address() + linesOffset, maxStreams * ConnectionLayout.LINE);
        this.streams = new ProtocolStream[maxStreams];
        for (int s = 0; s < maxStreams; s++) {
            final long ring = ConnectionLayout.ringOffset(s, ringCapacity);
            streams[s] = new ProtocolStream(s,
                new StreamSendRing(new UnsafeBuffer(local.address() + ring, ringCapacity),
                    new UnsafeBuffer(lines, s * ConnectionLayout.LINE, ConnectionLayout.LINE)),
                new StreamReceiveRing(new UnsafeBuffer(remote.address() + ring, ringCapacity)));
        }
        this.maxOutstandingSends = sendDepth(maxStreams) - 4;
        this.sends = queuePair.newSendRequest(3 * maxStreams + 2);
        this.receives = queuePair.newReceiveRequest(RECEIVE_DEPTH);
    }

    private static int sendDepth(final int maxStreams) {
        return 8 * maxStreams + 64;
    }

    /**
     * Connects to a listener and runs the handshake.
     *
     * @throws ProtocolException if the listener refused (its reason in the message) or answered with a handshake
     * this side cannot accept
     */
    public static ProtocolConnection connect(final RdmaDevice device, final String address,
                                             final ProtocolOptions options, final Duration timeout) {
        final Resources resources = Resources.allocate(device, options);
        try {
            final Handshake mine = Handshake.of(options, resources.remote);
            final QueuePair queuePair;
            try {
                queuePair = device.connect(address, resources.queuePairOptions(options), mine.encode(), timeout);
            } catch (final ConnectionRejectedException rejected) {
                final String reason = Handshake.decodeReject(rejected.privateData());
                throw new ProtocolException("the peer at '" + address + "' refused the connection: "
                    + (reason != null ? reason : rejected.getMessage()), rejected);
            }
            final String problem = Handshake.validate(queuePair.peerPrivateData(), options, true);
            if (problem != null) {
                queuePair.close();
                throw new ProtocolException("the peer at '" + address + "' answered with a handshake this side cannot "
                    + "accept: " + problem);
            }
            return start(device, options, resources, queuePair, Handshake.decode(queuePair.peerPrivateData()));
        } catch (final RuntimeException ex) {
            resources.close();
            throw ex;
        }
    }

    /**
     * Answers a connect request: accepts it if its handshake is acceptable, rejects it with the reason otherwise.
     *
     * @throws ProtocolException if the request was rejected (the peer got the same reason)
     */
    public static ProtocolConnection accept(final RdmaDevice device, final ConnectRequest request,
                                            final ProtocolOptions options) {
        final String problem = Handshake.validate(request.privateData(), options, false);
        if (problem != null) {
            request.reject(Handshake.encodeReject(problem));
            throw new ProtocolException("refused a connection from " + request.peerDescription() + ": " + problem);
        }
        final Handshake peer = Handshake.decode(request.privateData());
        final ProtocolOptions agreed = peer.agreedWith(options);
        final Resources resources;
        try {
            resources = Resources.allocate(device, agreed);
        } catch (final RuntimeException ex) {
            // answer now, with why, rather than leave the peer waiting for its connect timeout
            try {
                request.reject(Handshake.encodeReject("this side cannot allocate the connection"));
            } catch (final RuntimeException rejectFailed) {
                ex.addSuppressed(rejectFailed);
            }
            throw ex;
        }
        try {
            final QueuePair queuePair = request.accept(resources.queuePairOptions(agreed),
                Handshake.of(agreed, resources.remote).encode());
            return start(device, agreed, resources, queuePair, peer);
        } catch (final RuntimeException ex) {
            resources.close();
            throw ex;
        }
    }

    private static ProtocolConnection start(final RdmaDevice device, final ProtocolOptions options,
                                            final Resources resources, final QueuePair queuePair,
                                            final Handshake peer) {
        final ProtocolConnection connection = new ProtocolConnection(device, options, resources.completions,
            resources.local, resources.remote, queuePair, peer);
        connection.nowNanos = System.nanoTime();
        connection.lastReceivedNanos = connection.nowNanos;
        connection.lastSentNanos = connection.nowNanos;
        connection.receivesToRepost = RECEIVE_DEPTH;
        connection.repostReceives();
        return connection;
    }

    /** @return the stream of that slot; 0 is the control stream, which the driver owns */
    public ProtocolStream stream(final int id) {
        if (id <= 0 || id >= maxStreams) {
            throw new IllegalArgumentException("stream " + id + " is not a data stream of this connection (1 to "
                + (maxStreams - 1) + ")");
        }
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

    /** @return true once the connection ended, with an error or closed */
    public boolean isTerminated() {
        return error != null || closed;
    }

    /** @return the queue pair, for matching the device's connection events */
    public QueuePair queuePair() {
        return queuePair;
    }

    /** A connection event of the device concerns this connection: it ends. */
    public void onEvent(final ConnectionEvent event) {
        fail(switch (event.type()) {
            case DISCONNECTED -> "the peer disconnected: " + event.reason();
            case PEER_LOST -> "the peer was lost: " + event.reason();
            case QUEUE_PAIR_ERROR -> "the connection failed: " + event.reason();
        });
    }

    // ------------------------------------------------------------------------------------------------ duty cycle

    /**
     * One duty cycle.
     *
     * @param now {@link System#nanoTime()}
     * @return how much work was done (0 when idle)
     */
    public int doWork(final long now) {
        if (isTerminated()) {
            if (!terminationReported) {
                terminationReported = true;
                activity.onTerminated();
                return 1;
            }
            return 0;
        }
        nowNanos = now;
        int work = completions.poll(this, COMPLETIONS_PER_POLL);
        if (work < 0) {
            fail("the completion queue overflowed");
            return 0;
        }
        if (isTerminated()) {
            return work;
        }
        work += drainControl();
        for (int s = 1; s < maxStreams; s++) {
            if (streams[s].receiveRing().isCorrupted()) {
                fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " on stream " + s
                    + " (a checked frame changed before it was read)");
                return work;
            }
        }
        if (receivesToRepost >= RECEIVE_DEPTH / 4) {
            repostReceives();
            work++;
        }
        work += sendControl();
        sends.clear();
        work += sendData();
        work += returnCredit();
        if (grantPending && room(1)) {
            staging.putLong(ConnectionLayout.GRANT_OFFSET, receivesPosted);
            addWrite(KIND_GRANT, staging.addressOffset() + ConnectionLayout.GRANT_OFFSET, 8,
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
        final long grant = lines.getLongVolatile(ConnectionLayout.GRANT_OFFSET);
        if (grant < grantFromPeer) {
            fail(ProtocolError.describe(ProtocolError.CREDIT_BACKWARDS) + " (its receive grant)");
            return 0;
        }
        grantFromPeer = grant;
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
                staging.putLong(line + ConnectionLayout.CONSUMED_OFFSET, consumed);
                addWrite(KIND_CREDIT | s, staging.addressOffset() + line, 8,
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
        sends.add(wrId, WorkRequestOpcode.RDMA_WRITE, length <= 8 ? SendFlags.INLINE : 0)
            .sge(localAddress, length, local.lkey())
            .remote(peerAddress + remoteOffset, peerRkey);
        outstandingSends++;
    }

    private void addWriteWithImmediate(final int stream, final long endPosition, final long localAddress,
                                       final int length, final long remoteOffset, final int advance) {
        sends.add(KIND_DATA | ((long) stream << 48) | (endPosition & POSITION_MASK),
                WorkRequestOpcode.RDMA_WRITE_WITH_IMM, 0)
            .sge(localAddress, length, local.lkey())
            .remote(peerAddress + remoteOffset, peerRkey)
            .immediate(Immediate.encode(stream, advance));
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
        final StreamReceiveRing control = streams[0].receiveRing();
        while (!isTerminated() && control.poll(controlConsumer)) {
            frames++;
        }
        return frames;
    }

    private void onControlFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                                final byte flags) {
        switch (type) {
            case FrameTypes.REQUEST_N -> {
                final int stream = length == 16 ? buffer.getInt(index) : -1;
                final long n = length == 16 ? buffer.getLong(index + 8) : 0;
                if (stream <= 0 || stream >= maxStreams || n <= 0) {
                    fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " (REQUEST_N for stream " + stream
                        + " of " + n + ")");
                    return;
                }
                streams[stream].onPeerRequest(n);
                activity.onProducerReady(stream);
            }
            case FrameTypes.CANCEL -> {
                final int stream = length == 8 ? buffer.getInt(index) : -1;
                if (stream <= 0 || stream >= maxStreams) {
                    fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " (CANCEL for stream " + stream + ")");
                    return;
                }
                streams[stream].onPeerCancel();
                activity.onProducerReady(stream);
            }
            case FrameTypes.KEEPALIVE -> {
                // its arrival is what counts
            }
            default -> fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " (frame type " + type
                + " on the control stream)");
        }
    }

    /** Writes the consumers' requests and cancels into the control stream, as the driver owns it. */
    private int sendControl() {
        int frames = 0;
        final StreamSendRing control = streams[0].sendRing();
        for (int s = 1; s < maxStreams; s++) {
            final ProtocolStream stream = streams[s];
            if (stream.consumerError() != null) {
                fail(ProtocolError.describe(ProtocolError.FRAME_MALFORMED) + " on stream " + s + ": "
                    + stream.consumerError());
                return frames;
            }
            final long n = stream.takeRequested();
            if (n > 0) {
                final int index = control.claim(16);
                if (index < 0) {
                    stream.returnRequested(n);
                    return frames;
                }
                control.buffer().putInt(index, s);
                control.buffer().putInt(index + 4, 0);
                control.buffer().putLong(index + 8, n);
                control.commit(FrameTypes.REQUEST_N, (byte) 0);
                frames++;
            }
            if (stream.takeCancel()) {
                final int index = control.claim(8);
                if (index < 0) {
                    stream.cancel();
                    return frames;
                }
                control.buffer().putInt(index, s);
                control.buffer().putInt(index + 4, 0);
                control.commit(FrameTypes.CANCEL, (byte) 0);
                frames++;
            }
        }
        return frames;
    }

    private void keepAlive(final long now) {
        if (now - lastReceivedNanos > options.livenessTimeout().toNanos()) {
            fail("no word from the peer for " + (now - lastReceivedNanos) / 1_000_000 + " ms (liveness timeout "
                + options.livenessTimeout().toMillis() + " ms): it is dead or stuck");
            return;
        }
        if (now - lastSentNanos > options.keepaliveInterval().toNanos()) {
            final StreamSendRing control = streams[0].sendRing();
            final int index = control.claim(16);
            if (index >= 0) {
                control.buffer().putLong(index, now);
                control.buffer().putLong(index + 8, streams[0].receiveRing().receivedPosition());
                control.commit(FrameTypes.KEEPALIVE, (byte) 0);
            }
            lastSentNanos = now;
        }
    }

    @Override
    public void onCompletion(final Completion completion) {
        if (!completion.isSuccess()) {
            fail("a work request failed with " + CompletionStatus.name(completion.status()) + ": "
                + CompletionStatus.explain(completion.status()) + (queuePair.errorReason() != null
                ? " (" + queuePair.errorReason() + ")" : ""));
            return;
        }
        if (completion.isReceive()) {
            lastReceivedNanos = nowNanos;
            receivesToRepost++;
            final int immediate = completion.immediate();
            final int stream = Immediate.stream(immediate);
            if (stream >= maxStreams) {
                fail(ProtocolError.describe(ProtocolError.UNKNOWN_STREAM) + " (" + stream + ")");
                return;
            }
            final int code = streams[stream].receiveRing().onAdvance(Immediate.advance(immediate));
            if (code != ProtocolError.NONE) {
                fail(ProtocolError.describe(code) + " on stream " + stream);
            } else if (stream > 0) {
                activity.onFramesArrived(stream);
            }
            return;
        }
        outstandingSends--;
        final long wrId = completion.wrId();
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
        if (sends.count() > 0) {
            queuePair.postSend(sends); // best effort: the connection is going away whatever the status
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
            return QueuePairOptions.builder(completions, completions).sendDepth(sendDepth(options.maxStreams()))
                .receiveDepth(RECEIVE_DEPTH).maxSendSge(1).maxReceiveSge(1).maxInlineData(64).signalAll(true)
                .rnrRetries(0).build();
        }

        void close() {
            completions.close();
            remote.close();
            local.close();
        }
    }

    /** The handshake in the connect and accept private data (40 of rdma_cm's 56 bytes). */
    record Handshake(int maxStreams, int ringCapacity, int maxMessageLength, int regionRkey, long regionAddress,
                     long regionLength) {

        static final int MAGIC = 0x31505252; // "RRP1"
        static final short VERSION = 1;
        static final int LENGTH = 40;
        static final int REJECT_MAGIC = 0x4a525252; // "RRRJ"

        static Handshake of(final ProtocolOptions options, final MemoryRegion remote) {
            return new Handshake(options.maxStreams(), options.ringCapacity(), options.maxMessageLength(),
                remote.rkey(), remote.address(), remote.length());
        }

        byte[] encode() {
            final ByteBuffer buffer = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            buffer.putInt(MAGIC).putShort(VERSION).putShort((short) 0).putShort((short) maxStreams).putShort((short) 0)
                .putInt(ringCapacity).putInt(maxMessageLength).putInt(regionRkey).putLong(regionAddress)
                .putLong(regionLength);
            return buffer.array();
        }

        static Handshake decode(final byte[] data) {
            final ByteBuffer buffer = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
            return new Handshake(Short.toUnsignedInt(buffer.getShort(8)), buffer.getInt(12), buffer.getInt(16),
                buffer.getInt(20), buffer.getLong(24), buffer.getLong(32));
        }

        /**
         * @param fromServer true when checking the server's answer (it must match what was proposed)
         * @return null if acceptable, else the reason
         */
        static String validate(final byte[] data, final ProtocolOptions mine, final boolean fromServer) {
            if (data.length < LENGTH) {
                return "private data of " + data.length + " bytes is shorter than the " + LENGTH + "-byte handshake";
            }
            final ByteBuffer buffer = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
            if (buffer.getInt(0) != MAGIC) {
                return "the peer is not an rdma-reactive peer (no handshake magic)";
            }
            final short version = buffer.getShort(4);
            if (version != VERSION) {
                return "protocol version " + version + " is not supported (this side speaks " + VERSION + ")";
            }
            final Handshake peer = decode(data);
            if (peer.maxStreams < 2 || peer.maxStreams > mine.maxStreams()) {
                return "the peer asks for " + peer.maxStreams + " streams; this side allows 2 to " + mine.maxStreams();
            }
            if (Integer.bitCount(peer.ringCapacity) != 1 || peer.ringCapacity < 4096
                || peer.ringCapacity > mine.ringCapacity()) {
                return "ring capacity " + peer.ringCapacity + " is not a power of two from 4096 to " + mine.ringCapacity();
            }
            if (fromServer && (peer.maxStreams != mine.maxStreams() || peer.ringCapacity != mine.ringCapacity())) {
                return "the peer answered with " + peer.maxStreams + " streams of " + peer.ringCapacity
                    + " bytes, not the " + mine.maxStreams() + " of " + mine.ringCapacity() + " proposed";
            }
            if (peer.maxMessageLength < 1024) {
                return "maximum message length " + peer.maxMessageLength + " is below 1024";
            }
            final long needed = (long) peer.maxStreams * peer.ringCapacity + (long) peer.maxStreams * ConnectionLayout.LINE;
            if (peer.regionLength < needed) {
                return "the peer's receive region of " + peer.regionLength + " bytes cannot hold " + peer.maxStreams
                    + " rings of " + peer.ringCapacity + " bytes and their credit lines (" + needed + " bytes)";
            }
            return null;
        }

        ProtocolOptions agreedWith(final ProtocolOptions mine) {
            return new ProtocolOptions(maxStreams, ringCapacity, Math.min(maxMessageLength, mine.maxMessageLength()),
                mine.keepaliveInterval(), mine.livenessTimeout());
        }

        static byte[] encodeReject(final String reason) {
            final byte[] text = reason.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            final int length = Math.min(text.length, 48);
            final ByteBuffer buffer = ByteBuffer.allocate(8 + length).order(ByteOrder.LITTLE_ENDIAN);
            buffer.putInt(REJECT_MAGIC).putShort(VERSION).putShort((short) length).put(text, 0, length);
            return buffer.array();
        }

        static String decodeReject(final byte[] data) {
            if (data.length < 8) {
                return null;
            }
            final ByteBuffer buffer = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
            final int length = Short.toUnsignedInt(buffer.getShort(6));
            if (buffer.getInt(0) != REJECT_MAGIC || length > data.length - 8) {
                return null;
            }
            return new String(data, 8, length, java.nio.charset.StandardCharsets.US_ASCII);
        }
    }
}
