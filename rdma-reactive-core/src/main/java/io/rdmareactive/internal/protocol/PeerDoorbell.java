package io.rdmareactive.internal.protocol;

import org.agrona.concurrent.AtomicBuffer;

/**
 * How this side tells the peer's loop to look at the connection, with direct peer access: the peer's look-flag (line
 * 0's published word in the peer's region, {@link ConnectionLayout#LOOK_FLAG_OFFSET}), set after every write the peer
 * must see (a published frame, a post); and, when the flag was clear, the peer's doorbell in its loop's
 * {@link Doorbells} page, which wakes the connection if the peer parked it.
 *
 * <p>The peer's loop parks a connection only after this side acknowledged its doorbell (once the page is mapped here),
 * and only if the flag is clear after it said it parks; it clears the flag before it reads. So a write is always seen:
 * the flag was set while the peer looked (it looks again), or the doorbell rings. And where the peer's loop thread
 * sleeps on its page's sleep word ({@link Doorbells#sayAsleep()}), a write that finds the word set wakes it, from
 * whichever process: without that, a loop in another process slept through the write until its park ended.
 */
final class PeerDoorbell {

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
     * Tells the peer to look (any thread), after the writes it must see: sets its flag when clear, and then rings its
     * doorbell. Costs a read when the peer has not looked since the last ring.
     */
    void ring() {
        java.lang.invoke.VarHandle.fullFence(); // the writes before are visible before the flag is read
        ringFenced();
    }

    /** {@link #ring()} for a caller that has just made a full fence after its writes. */
    void ringFenced() {
        final AtomicBuffer mappedPage = page;
        if (flag.getLongVolatile(0) != 0) {
            // the peer's loop looks at this connection in every cycle, unless its thread went to sleep: its sleep word
            // says so (a read of a line that changes only when that loop sleeps or wakes)
            if (mappedPage != null) {
                Doorbells.wake(mappedPage);
            }
            return;
        }
        flag.putLongVolatile(0, 1); // a full fence: the page is read after the flag is visible
        if (mappedPage != null) {
            Doorbells.ring(mappedPage, doorbell);
            Doorbells.wake(mappedPage);
        }
    }
}
