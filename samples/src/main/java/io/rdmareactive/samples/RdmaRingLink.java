package io.rdmareactive.samples;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.retry.Retry;

/**
 * A {@link RingLink} over rdma-reactive: each rank serves at an address of its own, where its left neighbour
 * connects, and connects to its right neighbour's. The slices to the right are one long {@code outbound().send} on
 * that connection (stream 1), each slice one message encoded straight from the rank's array ({@link FloatSlice});
 * the slices from the left arrive on the served connection's {@code inbound().receiveViews()} and are summed straight
 * out of the receive ring ({@link SliceReceiver}). Back-pressure is the library's: a send waits while the right
 * neighbour's ring is full or it has not asked for more.
 *
 * <p>Each rank may be a process ({@link AllReduce}) or a thread: ranks in one JVM share its rdma-reactive runtime.
 */
public final class RdmaRingLink implements RingLink {

    /** The streams each connection has: stream 1 carries the slices, the least a connection may have. */
    private static final int STREAMS = 2;
    private static final Duration CLOSING = Duration.ofSeconds(10);
    /** The most slices handed to the outbound stream and not yet written: the sends' back-pressure. */
    private static final int IN_FLIGHT = 64;

    private final LinkWaiter waiter;
    private final DisposableServer server;
    private final Connection right;
    private final SliceReceiver<DirectBuffer> fromLeft;
    private final Sinks.Many<FloatSlice> toRight = Sinks.many().unicast().onBackpressureBuffer();
    private final SendProgress progress;
    /** Used in turn: a slice is reused once the {@value #IN_FLIGHT} after it were handed over, so it was written. */
    private final FloatSlice[] slices = new FloatSlice[IN_FLIGHT];
    private int next;
    private final AtomicReference<Throwable> sendFailure = new AtomicReference<>();

    private RdmaRingLink(final LinkWaiter waiter, final DisposableServer server, final Connection right,
                         final SliceReceiver<DirectBuffer> fromLeft) {
        this.waiter = waiter;
        this.server = server;
        this.right = right;
        this.fromLeft = fromLeft;
        this.progress = new SendProgress(waiter);
        for (int i = 0; i < slices.length; i++) {
            slices[i] = new FloatSlice(progress);
        }
        right.outbound().send(toRight.asFlux(), FloatSlice.CODEC).subscribe(null, error -> {
            sendFailure.compareAndSet(null, error);
            waiter.wake();
        });
    }

    /**
     * Serves this rank's address, connects to the right neighbour's (trying again until it serves, within
     * {@code patience}), and waits for the left neighbour to connect.
     *
     * @param serving     this rank's server as the caller configured it (provider, directory, idle strategy, runtime);
     *                    its address, rings and handler are set here
     * @param connecting  its client to the right neighbour, configured the same way; address and rings set here
     * @param addresses   the ranks' addresses, by rank (shared-memory names, or {@code IP:PORT} on verbs)
     * @param rank        this rank
     * @param sliceBytes  the largest slice; the rings are made large enough to carry four of them whole
     * @param patience    the longest to wait for a neighbour, and then for any one step of the link
     * @return the link, connected to both neighbours
     */
    public static RdmaRingLink open(final RdmaServer serving, final RdmaClient connecting, final String[] addresses,
                                    final int rank, final int sliceBytes, final Duration patience) {
        final int ring = Integer.highestOneBit(Math.max(65_536, (sliceBytes + 64) * 4 - 1)) << 1;
        final LinkWaiter waiter = new LinkWaiter(patience);
        final SliceReceiver<DirectBuffer> fromLeft = new SliceReceiver<>(waiter,
            view -> FloatCopies.segment(view, 0, view.capacity()));
        final DisposableServer server = serving.address(addresses[rank]).rings(STREAMS, ring)
            .handle((in, out) -> {
                in.receiveViews().subscribe(fromLeft);
                return fromLeft.whenEnded();
            }).bind().block(patience);
        try {
            final Connection right = connecting.address(addresses[(rank + 1) % addresses.length])
                .rings(STREAMS, ring).connect()
                .retryWhen(Retry.fixedDelay(patience.toMillis() / 100, Duration.ofMillis(100)))
                .block(patience);
            fromLeft.whenSubscribed().block(patience);
            return new RdmaRingLink(waiter, server, right, fromLeft);
        } catch (final RuntimeException ex) {
            server.dispose();
            throw ex;
        }
    }

    @Override
    public void send(final float[] source, final int offset, final int count) throws InterruptedException {
        waiter.await(() -> progress.pending() < IN_FLIGHT, this::failure,
            () -> "room for a slice at the right neighbour");
        final FloatSlice slice = slices[next];
        next = (next + 1) % IN_FLIGHT;
        slice.set(source, offset, count);
        progress.handed();
        final Sinks.EmitResult emitted = toRight.tryEmitNext(slice);
        if (emitted.isFailure()) {
            throw new IllegalStateException("the stream to the right neighbour took no slice: " + emitted,
                sendFailure.get());
        }
    }

    @Override
    public void awaitSent() throws InterruptedException {
        waiter.await(() -> progress.pending() == 0, this::failure,
            () -> "the right neighbour to take " + progress.pending() + " slices");
    }

    @Override
    public long expect(final float[] target, final float[] addend, final int offset, final int count) {
        return fromLeft.expect(target, addend, offset, count);
    }

    @Override
    public void awaitReceived(final long slice) throws InterruptedException {
        waiter.await(() -> fromLeft.stored() >= slice, this::failure,
            () -> "slice " + slice + " from the left neighbour (" + fromLeft.stored() + " in)");
    }

    /**
     * Ends the stream to the right, waits for the left neighbour to end its own (which ends the served connection),
     * then for the right neighbour to close the connection to it, and lets the server go; each wait bounded.
     */
    @Override
    public void close() {
        try {
            toRight.tryEmitComplete();
            waiter.await(() -> fromLeft.completed() || fromLeft.failure() != null, () -> null,
                () -> "the end of the left neighbour's stream");
            right.onDispose().onErrorComplete().timeout(CLOSING, Mono.fromRunnable(right::dispose)).block();
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            right.dispose();
            server.dispose();
            server.onDispose().onErrorComplete().block(CLOSING);
        }
    }

    private Throwable failure() {
        final Throwable sent = sendFailure.get();
        return sent != null ? sent : fromLeft.failure();
    }
}
