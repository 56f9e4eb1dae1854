package io.rdmareactive.internal.protocol;

import org.agrona.concurrent.AtomicBuffer;

/**
 * How this side tells the peer's loop to look at the connection, with direct peer access: the peer's look-flag (line
 * 0's published word in the peer's region, {@link ConnectionLayout#LOOK_FLAG_OFFSET}), whose bits say what to look at
 * ({@link #streamBit(int)} after a frame published on a stream, {@link #POSTED} after a post or a credit write), set
 * after every write the peer must see; and, when the flag was clear, the peer's doorbell in its loop's
 * {@link Doorbells} page, which wakes the connection if the peer parked it.
 *
 * <p>The peer's loop parks a connection only after this side acknowledged its doorbell (once the page is mapped here),
 * and only if the flag is clear after it said it parks; it clears the flag before it reads. So a write is always seen:
 * the flag was set while the peer looked (it looks again), or the doorbell rings. And where the peer's loop thread
 * sleeps on its page's sleep word ({@link Doorbells#sayAsleep()}), a write that finds the word set wakes it, from
 * whichever process: without that, a loop in another process slept through the write until its park ended.
 */
final class PeerDoorbell {

    /**
     * The look-flag's bit for a post or a credit written into the peer's lines: nothing published, but the peer's loop
     * polls the connection (its completions, its credit). It is also the bit of streams 64, 128, ...
     */
    static final long POSTED = 1L;

    private final AtomicBuffer flag;
    /** The peer's doorbell page, mapped here; null until this side's loop mapped it. */
    private volatile AtomicBuffer page;
    private int doorbell;

    /** @param flag the peer's look-flag (a long at offset 0), mapped here */
    PeerDoorbell(final AtomicBuffer flag) {
        this.flag = flag;
    }

    /** The peer's doorbell page is mapped (loop): rings reach it from now on. */
    void mapped(final AtomicBuffer page, final int doorbell) {
        this.doorbell = doorbell;
        this.page = page;
    }

    /** @return true once the peer's doorbell page is mapped */
    boolean isMapped() {
        return page != null;
    }

    /**
     * @return the look-flag's bit for a frame published on stream {@code stream}: bit {@code stream % 64}, which the
     *     peer's loop reads as "look at the streams of that remainder"
     */
    static long streamBit(final int stream) {
        return 1L << (stream & 63);
    }

    /**
     * Tells the peer to look (any thread), after the writes it must see: adds {@code bits} to its flag when they are
     * not all set, and then rings its doorbell if the flag was clear. Costs a read when the peer has not looked since
     * the last ring for the same bits.
     */
    void ring(final long bits) {
        java.lang.invoke.VarHandle.fullFence(); // the writes before are visible before the flag is read
        ringFenced(bits);
    }

    /** {@link #ring(long)} for a caller that has just made a full fence after its writes. */
    void ringFenced(final long bits) {
        final AtomicBuffer mappedPage = page;
        long current = flag.getLongVolatile(0);
        if ((current & bits) == bits) {
            // the peer's loop will look at these, unless its thread went to sleep: its sleep word says so (a read of a
            // line that changes only when that loop sleeps or wakes)
            if (mappedPage != null) {
                Doorbells.wake(mappedPage);
            }
            return;
        }
        while (!flag.compareAndSetLong(0, current, current | bits)) { // a full fence: the page is read after
            current = flag.getLongVolatile(0);
        }
        if (mappedPage != null) {
            if (current == 0) { // the peer's loop may have parked the connection: its doorbell brings it back
                Doorbells.ring(mappedPage, doorbell);
            }
            Doorbells.wake(mappedPage);
        }
    }
}
