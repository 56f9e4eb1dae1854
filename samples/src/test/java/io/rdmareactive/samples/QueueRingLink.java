package io.rdmareactive.samples;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link RingLink} between threads of one JVM, for testing the ring's schedule without a transport: a slice is
 * copied into a bounded queue to the right neighbour (a full queue blocks the sender: back-pressure), and stored
 * when {@link #awaitReceived}, or a send that waits, takes it from the queue from the left. {@link #corruptingOneSlice()} makes a link that
 * adds 1 to the first float of one slice it sends, to show that the checks see it.
 */
final class QueueRingLink implements RingLink {

    private static final long PATIENCE_SECONDS = 30;

    /** Where a slice goes. */
    private record Expected(float[] target, float[] addend, int offset, int count) {
    }

    private final BlockingQueue<float[]> toRight;
    private final BlockingQueue<float[]> fromLeft;
    private final Queue<Expected> expected = new ArrayDeque<>();
    private final long corruptedSend;
    private long asked;
    private long stored;
    private long sends;

    private QueueRingLink(final BlockingQueue<float[]> toRight, final BlockingQueue<float[]> fromLeft,
                          final long corruptedSend) {
        this.toRight = toRight;
        this.fromLeft = fromLeft;
        this.corruptedSend = corruptedSend;
    }

    /**
     * @param ranks         the ring's size
     * @param capacity      the slices each queue holds
     * @param corruptedSend the send (from 1) of rank 0 whose first float is made wrong, or 0 for none
     * @return each rank's link, by rank
     */
    static QueueRingLink[] ring(final int ranks, final int capacity, final long corruptedSend) {
        final BlockingQueue<float[]>[] queues = queues(ranks, capacity);
        final QueueRingLink[] links = new QueueRingLink[ranks];
        for (int rank = 0; rank < ranks; rank++) {
            // queue r carries rank r's slices to rank r + 1
            links[rank] = new QueueRingLink(queues[rank], queues[Math.floorMod(rank - 1, ranks)],
                rank == 0 ? corruptedSend : 0);
        }
        return links;
    }

    @SuppressWarnings("unchecked")
    private static BlockingQueue<float[]>[] queues(final int ranks, final int capacity) {
        final BlockingQueue<float[]>[] queues = (BlockingQueue<float[]>[]) new BlockingQueue<?>[ranks];
        for (int i = 0; i < ranks; i++) {
            queues[i] = new ArrayBlockingQueue<>(capacity);
        }
        return queues;
    }

    @Override
    public void send(final float[] source, final int offset, final int count) throws InterruptedException {
        final float[] slice = new float[count];
        System.arraycopy(source, offset, slice, 0, count);
        if (++sends == corruptedSend && count > 0) {
            slice[0] += 1;
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (!toRight.offer(slice, 100, TimeUnit.MICROSECONDS)) {
            // a full queue: store what came from the left meanwhile, as the contract asks
            while (stored < asked && storeNext(0)) {
                stored++;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the right neighbour took no slice within " + PATIENCE_SECONDS
                    + " s");
            }
        }
    }

    @Override
    public void awaitSent() {
        // every slice was copied when it was sent
    }

    @Override
    public long expect(final float[] target, final float[] addend, final int offset, final int count) {
        expected.add(new Expected(target, addend, offset, count));
        return ++asked;
    }

    @Override
    public void awaitReceived(final long slice) throws InterruptedException {
        while (stored < slice) {
            if (!storeNext(PATIENCE_SECONDS)) {
                throw new IllegalStateException("no slice " + (stored + 1) + " within " + PATIENCE_SECONDS + " s");
            }
            stored++;
        }
    }

    /** Stores the next slice from the left where it is expected, waiting for it up to {@code seconds}. */
    private boolean storeNext(final long seconds) throws InterruptedException {
        final float[] received = fromLeft.poll(seconds, TimeUnit.SECONDS);
        if (received == null) {
            return false;
        }
        final Expected place = expected.poll();
        if (place == null || received.length != place.count()) {
            throw new IllegalStateException("slice " + (stored + 1) + ": " + received.length + " floats where "
                + place + " was expected");
        }
        for (int i = 0; i < received.length; i++) {
            place.target()[place.offset() + i] = received[i]
                + (place.addend() == null ? 0 : place.addend()[place.offset() + i]);
        }
        return true;
    }

    @Override
    public void close() {
        // nothing to let go
    }
}
