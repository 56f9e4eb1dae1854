package io.rdmareactive.samples;

/**
 * One rank's place in a ring: a stream of float slices to the right neighbour, and one from the left neighbour. The
 * ring all-reduce ({@link RingAllReduce}) and its control passes ({@link RingControl}) are written against this
 * interface alone, so the same schedule runs over any transport that can carry ordered slices with back-pressure.
 *
 * <p>One thread, the rank's own, calls every method. Receives are asked for ahead of time ({@link #expect}) so that
 * the left neighbour may run ahead while this rank is still sending; they are stored in the order they were asked
 * for, each into the place its {@code expect} named.
 *
 * <p>Public, with {@link AllReduceBench}, {@link AllReduceRow} and {@link RdmaRingLink}, so that the perf suite runs
 * this same schedule over other transports (Aeron, TCP) with links of its own; the schedule itself
 * ({@link RingAllReduce}, {@link RingControl}) stays package-private.
 */
public interface RingLink extends AutoCloseable {

    /**
     * Sends {@code source[offset, offset + count)} to the right neighbour as one slice, read from {@code source} when
     * the transport takes it: that range must not change until {@link #awaitSent} returns. It blocks while too many
     * slices wait for the right neighbour (back-pressure); meanwhile the link goes on storing the slices expected from
     * the left, or a ring whose ranks all wait to send would wait for ever.
     *
     * @throws IllegalStateException if the link failed, or made no progress within its deadline
     */
    void send(float[] source, int offset, int count) throws InterruptedException;

    /**
     * Waits until every slice sent so far was taken from its array.
     *
     * @throws IllegalStateException if the link failed, or made no progress within its deadline
     */
    void awaitSent() throws InterruptedException;

    /**
     * Asks for the next slice from the left neighbour, of {@code count} floats, to be stored as
     * {@code target[offset + i] = received[i]}, or {@code addend[offset + i] + received[i]} when {@code addend} is not
     * null. It returns at once; {@link #awaitReceived} says when the slice is stored.
     *
     * @return the slice's number: 1 for the first slice asked for since the link was made, then 2, 3, ...
     */
    long expect(float[] target, float[] addend, int offset, int count);

    /**
     * Waits until the slices asked for up to number {@code slice} are stored.
     *
     * @throws IllegalStateException if the link failed, a slice had another length than asked for, or the link made
     *     no progress within its deadline
     */
    void awaitReceived(long slice) throws InterruptedException;

    /**
     * Ends the stream to the right once the left neighbour has ended its own, and lets the transport go. Interrupted
     * while waiting, it lets the transport go at once and leaves the thread's interrupt status set.
     */
    @Override
    void close();
}
