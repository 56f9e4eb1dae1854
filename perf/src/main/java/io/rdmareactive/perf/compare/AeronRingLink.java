package io.rdmareactive.perf.compare;

import io.aeron.Aeron;
import io.aeron.ControlledFragmentAssembler;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.aeron.logbuffer.Header;
import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.samples.FloatCopies;
import io.rdmareactive.samples.RingLink;
import io.rdmareactive.samples.RingSlot;
import java.io.IOException;
import java.net.DatagramSocket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A {@link RingLink} over Aeron: an exclusive publication to the right neighbour and a subscription to the left
 * neighbour's, both driven by the rank's own thread. A slice is copied into one message at {@link #send} (so
 * {@link #awaitSent} has nothing to wait for); while Aeron pushes back, the send polls the subscription, storing the
 * slices already expected, or a ring whose ranks all wait to send would wait for ever. A slice that arrives before
 * it is expected stays in the log (the poll aborts on it) until it is. An empty message ends the stream.
 */
final class AeronRingLink implements RingLink {

    private static final int FRAGMENTS = 64;
    /** Each ring's log buffers: 3 terms of 4 MiB per publication (and per image over UDP), messages up to 512 KiB. */
    private static final int TERM_LENGTH = 4 << 20;
    /** Stream ids apart from those of the other workloads' sessions; each ring takes one per rank. */
    private static final AtomicInteger NEXT_STREAM = new AtomicInteger(900_000);

    private final ExclusivePublication toRight;
    private final Subscription fromLeft;
    private final IdleStrategy idle;
    private final long patienceNanos;
    private final UnsafeBuffer frame;
    private final Queue<RingSlot> expected = new ArrayDeque<>();
    private final ControlledFragmentAssembler assembler = new ControlledFragmentAssembler(this::onMessage);
    private long asked;
    private long stored;
    private boolean leftEnded;

    /**
     * @param toRight    the publication the right neighbour subscribes to, connected
     * @param fromLeft   the subscription to the left neighbour's publication
     * @param idle       how the rank's thread waits between empty polls
     * @param sliceBytes the largest slice
     * @param patience   the longest any one wait may last
     */
    AeronRingLink(final ExclusivePublication toRight, final Subscription fromLeft, final IdleStrategy idle,
                  final int sliceBytes, final Duration patience) {
        if (sliceBytes > toRight.maxMessageLength()) {
            throw new IllegalArgumentException("slices of " + sliceBytes + " bytes pass Aeron's largest message, "
                + toRight.maxMessageLength());
        }
        this.toRight = toRight;
        this.fromLeft = fromLeft;
        this.idle = idle;
        this.patienceNanos = patience.toNanos();
        this.frame = new UnsafeBuffer(BufferUtil.allocateDirectAligned(Math.max(sliceBytes, 64), 64));
    }

    /**
     * Makes a ring of {@code ranks} links in this JVM: rank r publishes on a stream of its own, over IPC or to a UDP
     * port of 127.0.0.1 that rank r + 1 subscribes to; returns once every publication is connected.
     *
     * @param idle       the idle strategy of the ranks' threads
     * @param sliceBytes the largest slice
     * @param patience   the longest to wait for the connections, and then for any one step of a link
     * @return the links, by rank
     * @throws IOException if no UDP port could be found
     */
    static AeronRingLink[] ring(final Aeron aeron, final boolean udp, final int ranks, final Idle idle,
                                final int sliceBytes, final Duration patience) throws IOException {
        final int firstStream = NEXT_STREAM.getAndAdd(ranks);
        final ExclusivePublication[] publications = new ExclusivePublication[ranks];
        final Subscription[] subscriptions = new Subscription[ranks];
        try {
            for (int rank = 0; rank < ranks; rank++) {
                final String channel = channel(udp);
                // rank r + 1 receives what rank r publishes
                subscriptions[(rank + 1) % ranks] = aeron.addSubscription(channel, firstStream + rank);
                publications[rank] = aeron.addExclusivePublication(channel, firstStream + rank);
            }
            final long deadline = System.nanoTime() + patience.toNanos();
            final IdleStrategy waiting = Idle.WAITING.newStrategy();
            for (final ExclusivePublication publication : publications) {
                while (!publication.isConnected()) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("stream " + publication.streamId() + " did not connect "
                            + "within " + patience);
                    }
                    waiting.idle();
                }
            }
            final AeronRingLink[] links = new AeronRingLink[ranks];
            for (int rank = 0; rank < ranks; rank++) {
                links[rank] = new AeronRingLink(publications[rank], subscriptions[rank], idle.newStrategy(),
                    sliceBytes, patience);
            }
            return links;
        } catch (final IOException | RuntimeException ex) {
            CloseHelper.closeAll(publications);
            CloseHelper.closeAll(subscriptions);
            throw ex;
        }
    }

    private static String channel(final boolean udp) throws IOException {
        if (!udp) {
            return "aeron:ipc?term-length=" + TERM_LENGTH;
        }
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "aeron:udp?endpoint=127.0.0.1:" + socket.getLocalPort() + "|term-length=" + TERM_LENGTH;
        }
    }

    @Override
    public void send(final float[] source, final int offset, final int count) {
        FloatCopies.write(source, offset, count, FloatCopies.segment(frame, 0, count * Float.BYTES));
        offer(count * Float.BYTES, "room for a slice at the right neighbour");
    }

    @Override
    public void awaitSent() {
        // each slice was copied into the log when it was sent
    }

    @Override
    public long expect(final float[] target, final float[] addend, final int offset, final int count) {
        expected.add(new RingSlot(target, addend, offset, count));
        return ++asked;
    }

    @Override
    public void awaitReceived(final long slice) {
        final long deadline = System.nanoTime() + patienceNanos;
        idle.reset();
        while (stored < slice) {
            if (fromLeft.controlledPoll(assembler, FRAGMENTS) > 0) {
                idle.reset();
            } else {
                due(deadline, "slice " + slice + " from the left neighbour (" + stored + " in)");
                idle.idle();
            }
        }
    }

    /** Sends the end of the stream, waits (within the patience) for the left neighbour's, and closes both. */
    @Override
    public void close() {
        try {
            offer(0, "room for the end of the stream");
            final long deadline = System.nanoTime() + patienceNanos;
            idle.reset();
            while (!leftEnded && System.nanoTime() - deadline < 0) {
                if (fromLeft.controlledPoll(assembler, FRAGMENTS) == 0) {
                    idle.idle();
                }
            }
        } finally {
            toRight.close();
            fromLeft.close();
        }
    }

    /** Offers the first {@code length} bytes of the frame until Aeron takes them, receiving meanwhile. */
    private void offer(final int length, final String what) {
        final long deadline = System.nanoTime() + patienceNanos;
        idle.reset();
        while (true) {
            final long result = toRight.offer(frame, 0, length);
            if (result > 0) {
                return;
            }
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                throw new IllegalStateException("the publication to the right neighbour ended: " + result);
            }
            // back-pressured, not connected (yet) or an admin action: keep the left neighbour's slices moving
            if (stored >= asked || fromLeft.controlledPoll(assembler, FRAGMENTS) == 0) {
                due(deadline, what);
                idle.idle();
            }
        }
    }

    private Action onMessage(final DirectBuffer buffer, final int offset, final int length, final Header header) {
        if (length == 0) {
            leftEnded = true;
            return Action.CONTINUE;
        }
        final RingSlot slot = expected.peek();
        if (slot == null) {
            return Action.ABORT; // not asked for yet: it stays in the log
        }
        expected.remove();
        slot.store(FloatCopies.segment(buffer, offset, length));
        stored++;
        return Action.CONTINUE;
    }

    private void due(final long deadline, final String what) {
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("interrupted while waiting for " + what);
        }
        if (System.nanoTime() - deadline > 0) {
            throw new IllegalStateException("no " + what + " within " + patienceNanos / 1_000_000 + " ms");
        }
    }
}
