package io.rdmareactive.internal.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The streams of one connection that its producers and consumers touched since the connection's loop last looked:
 * a frame committed, a request or cancel made, bytes consumed. The loop takes the marks at the start of a duty cycle
 * and looks at those streams (and the ones it still watches) only, so that a cycle costs in proportion to the
 * streams with work, not to the streams a connection has.
 *
 * <p>One bit per stream, in words of 64. Marking is a full fence and a read; the atomic OR only when the bit is not
 * set yet, so a producer that commits many frames between two looks of the loop pays the write once. The fence
 * orders what the caller wrote before (a committed position, a request) before the read of the mark: a loop that
 * clears the mark after that read sees the write when it looks at the stream.
 */
final class StreamMarks {

    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] words;
    /** The streams the loop looks at in every cycle anyway (written by the loop, read by producers). */
    private final long[] watched;
    /** Set while the connection's loop does not poll it (parked): a mark then rings the doorbell. */
    private volatile boolean parked;
    private AtomicBuffer doorbells;
    private int doorbell;

    StreamMarks(final int maxStreams) {
        this.words = new long[(maxStreams + 63) >>> 6];
        this.watched = new long[words.length];
    }

    /** @return how many words of 64 streams there are */
    int wordCount() {
        return words.length;
    }

    /** Marks {@code stream} (any thread), after what the caller wrote for it. */
    void mark(final int stream) {
        final int word = stream >>> 6;
        final long bit = 1L << stream;
        VarHandle.fullFence();
        if (((long) WORDS.getVolatile(words, word) & bit) == 0) {
            WORDS.getAndBitwiseOr(words, word, bit);
        }
        if (parked) {
            // the loop takes the marks after it saw the doorbell; one ring wakes it, so the marks after this one (a
            // producer's next commits) need not ring again
            parked = false;
            Doorbells.ring(doorbells, doorbell);
        }
    }

    /**
     * Marks {@code stream} after a commit to its send ring (its producer), unless the loop watches the stream: then it
     * looks at the ring in its next cycle anyway, and a stream that streams pays a fence and a read per commit, not a
     * write to a line the loop writes too. The loop drops a stream from the watched set only with a look after the
     * drop ({@link #watch}): a commit that found it still watched is seen by that look.
     */
    void markCommit(final int stream) {
        VarHandle.fullFence();
        if (((long) WORDS.getVolatile(watched, stream >>> 6) & (1L << stream)) != 0) {
            return;
        }
        mark(stream);
    }

    /**
     * The loop watches the streams of {@code bits} in word {@code word} from now on (loop only): a store with a full
     * fence, so that the loop's look after it at a dropped stream's ring sees any commit that skipped its mark.
     *
     * @return the streams that were watched before and are not now: the caller looks at their send rings once more
     */
    long watch(final int word, final long bits) {
        final long before = watched[word];
        if (before != bits) {
            WORDS.setVolatile(watched, word, bits);
        }
        return before & ~bits;
    }

    /** The connection's doorbell in its loop's page (loop, before it first parks). */
    void doorbell(final AtomicBuffer page, final int doorbell) {
        this.doorbells = page;
        this.doorbell = doorbell;
    }

    /**
     * The loop stops polling the connection (loop): marks from now on ring its doorbell.
     *
     * @return false if a stream was marked meanwhile (the loop goes on polling it)
     */
    boolean park() {
        parked = true; // a full fence: the words are read after
        for (int w = 0; w < words.length; w++) {
            if ((long) WORDS.getVolatile(words, w) != 0) {
                parked = false;
                return false;
            }
        }
        return true;
    }

    /** The loop polls the connection again (loop). */
    void unpark() {
        parked = false;
    }

    /**
     * Takes the marks of one word (the loop): they are cleared before the loop looks at their streams, so a stream
     * marked again while it looks is looked at again in the next cycle.
     *
     * @return the word's bits, bit {@code s & 63} for stream {@code s}
     */
    long take(final int word) {
        if ((long) WORDS.getVolatile(words, word) == 0) {
            return 0;
        }
        return (long) WORDS.getAndSet(words, word, 0L);
    }
}
