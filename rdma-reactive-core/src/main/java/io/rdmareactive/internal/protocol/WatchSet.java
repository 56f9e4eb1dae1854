package io.rdmareactive.internal.protocol;

/**
 * The watch set of one connection: the streams its loop looks at in a duty cycle, one bit each. The loop adds the
 * streams their producers and consumers marked ({@link StreamMarks}) and the ones completions or published positions
 * concern, and after the posts keeps only the ones with work of their own. The parts of the connection that walk or
 * extend the set hold its words ({@link #active}) themselves. Loop only; allocates nothing.
 */
final class WatchSet {

    /**
     * The streams the loop looks at in this duty cycle, one bit each (loop only): the marked ones, the ones that
     * completions or published positions concern, and the ones it still watches (bytes not posted or not credited
     * yet, credit not returned yet). A connection's cycle costs in proportion to these, not to its stream slots.
     */
    final long[] active;
    /** The streams producers and consumers touched since the loop last looked. */
    private final StreamMarks marks;
    private final ProtocolStream[] streams;

    /** @param streams the connection's streams, filled in before the first duty cycle */
    WatchSet(final StreamMarks marks, final ProtocolStream[] streams) {
        this.marks = marks;
        this.streams = streams;
        this.active = new long[marks.wordCount()];
    }

    /** The loop looks at stream {@code s} of the set {@code active} in this cycle (and the next, while it has work). */
    static void activate(final long[] active, final int s) {
        active[s >>> 6] |= 1L << s;
    }

    /** @return true if the loop looks at stream {@code s} in this cycle */
    boolean isActive(final int s) {
        return (active[s >>> 6] & (1L << s)) != 0;
    }

    /** Adds the streams producers and consumers marked since the last look. */
    void takeMarks() {
        for (int w = 0; w < active.length; w++) {
            active[w] |= marks.take(w);
        }
    }

    /**
     * After the posts: the loop keeps looking at the streams that still have work of their own (bytes not posted or
     * not yet credited by the peer, credit not yet returned); the others drop out until a mark, a completion or a
     * published position brings them back.
     */
    void keepWatching() {
        for (int w = 0; w < active.length; w++) {
            long bits = active[w];
            long keep = 0;
            while (bits != 0) {
                final int bit = Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                final ProtocolStream stream = streams[(w << 6) + bit];
                if (stream.sendRing().isBusy() || stream.receiveRing().hasCreditToReturn()
                    || stream.hasControlPending()) {
                    keep |= 1L << bit;
                }
            }
            // a commit to a watched stream marks nothing (StreamMarks.markCommit): after the store that drops a
            // stream, look at its send ring once more, or a commit that found it still watched would wait unseen
            long dropped = marks.watch(w, keep);
            if (dropped != 0) {
                long again = 0;
                while (dropped != 0) {
                    final int bit = Long.numberOfTrailingZeros(dropped);
                    dropped &= dropped - 1;
                    if (streams[(w << 6) + bit].sendRing().isBusy()) {
                        again |= 1L << bit;
                    }
                }
                if (again != 0) {
                    keep |= again;
                    marks.watch(w, keep);
                }
            }
            active[w] = keep;
        }
    }
}
