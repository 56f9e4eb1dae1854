package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.ProtectionDomain;
import io.rdmareactive.spi.RdmaDevice;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One event loop's doorbells: a page of registered memory holding one bit per connection the loop may stop polling
 * (a parked connection, see {@link ProtocolConnection#park()}). Whoever gives a parked connection work rings its bit:
 * a thread of this process that commits on it or consumes from it, or the peer, whose producers and loop write straight
 * into this page (direct peer access: the page is registered again in each connection's protection domain, and the
 * peer maps that registration like the rings), or, where the peer has no such access (verbs), the completion its
 * writes make, once the connection's completion queue was armed (the provider's event thread rings it). The loop
 * reads the page's
 * words in use once per duty cycle, a few cache lines for thousands of connections, and polls again the connections
 * whose bit it finds set; a parked connection costs it nothing else.
 *
 * <p>A bit is set with a compare-and-set loop on its word, which works across processes on shared memory; the loop
 * takes a word with one atomic swap. A bit set by a peer that has no business there only makes the loop look at a
 * connection with nothing to do.
 */
public final class Doorbells implements AutoCloseable {

    /** The page's length. */
    public static final int LENGTH = 4096;
    /**
     * Offset of the loop's sleep word (an int), alone in the page's last cache line: 1 from just before the loop's
     * last look for work until it wakes, while its thread may sleep on the word ({@link Futex}); 0 otherwise. Whoever
     * gives the loop work after that look, in this process or another that maps the page, finds it 1, sets it to 0 and
     * wakes the thread ({@link #wake(AtomicBuffer)}).
     */
    static final int SLEEP_OFFSET = LENGTH - 64;
    /** The most doorbells one page holds: 32,256, the last cache line being the sleep word's. */
    public static final int CAPACITY = SLEEP_OFFSET * Byte.SIZE;

    private final MemoryRegion region;
    private final AtomicBuffer page;
    private final Object[] owners = new Object[CAPACITY];
    private final int[] free = new int[CAPACITY];
    private int freeCount;
    private int nextUnused;
    /** Words from the first to the last doorbell in use (loop only). */
    private int wordsInUse;

    /**
     * Allocates and registers the page on {@code device}.
     *
     * @param peersWrite the device gives direct peer access: peers map the page and ring it (else only this process
     *                   does, and the page is registered for local access alone)
     */
    public Doorbells(final RdmaDevice device, final boolean peersWrite) {
        this.region = device.allocateRegion(LENGTH, peersWrite ? Access.LOCAL_WRITE | Access.REMOTE_WRITE
            : Access.LOCAL_WRITE);
        this.page = new UnsafeBuffer(region.address(), LENGTH);
        page.setMemory(0, LENGTH, (byte) 0);
        // binds the futex call now, as the loop starts: bound on first use, it held the first commit that looked at
        // a peer's sleep word for as long as the linker took (50-110 ms, seen as loop stalls in the ping-pong sample)
        Futex.ensureBound();
    }

    /**
     * Registers the page in a connection's protection domain: the peer reaches it only through a registration of the
     * domain its connection's queue pair is in, as it reaches the rings.
     *
     * @return the registration, which the connection describes to its peer and closes when it closes
     */
    MemoryRegion registerIn(final ProtectionDomain domain) {
        return domain.register(region.memory(), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
    }

    /** @return the page, for ringing a doorbell of this process */
    AtomicBuffer page() {
        return page;
    }

    /**
     * Gives {@code owner} a doorbell (loop).
     *
     * @return its number, or -1 when the page is full (the connection is then polled in every cycle)
     */
    public int allocate(final Object owner) {
        final int doorbell;
        if (freeCount > 0) {
            doorbell = free[--freeCount];
        } else if (nextUnused < CAPACITY) {
            doorbell = nextUnused++;
        } else {
            return -1;
        }
        owners[doorbell] = owner;
        wordsInUse = Math.max(wordsInUse, (doorbell >>> 6) + 1);
        return doorbell;
    }

    /** Takes a doorbell back (loop); a ring that comes later finds no owner and is ignored. */
    public void release(final int doorbell) {
        if (doorbell >= 0 && owners[doorbell] != null) {
            owners[doorbell] = null;
            free[freeCount++] = doorbell;
        }
    }

    /** @return the owner of a doorbell, or null */
    public Object owner(final int doorbell) {
        return owners[doorbell];
    }

    /** @return how many words of 64 doorbells the loop reads ({@link #take}) */
    public int wordsInUse() {
        return wordsInUse;
    }

    /**
     * Takes the doorbells of one word that rang (loop): cleared before their connections are polled, so a ring that
     * comes while they are is seen in the next cycle.
     *
     * @return bit {@code d & 63} for doorbell {@code d} of word {@code d >>> 6}
     */
    public long take(final int word) {
        final int offset = word << 3;
        if (page.getLongVolatile(offset) == 0) {
            return 0;
        }
        return page.getAndSetLong(offset, 0);
    }

    /** Rings doorbell {@code doorbell} of this page (any thread of this process, while the page is open). */
    public void ring(final int doorbell) {
        ring(page, doorbell);
    }

    /** Rings doorbell {@code doorbell} of {@code page} (any thread, any process mapping it). */
    static void ring(final AtomicBuffer page, final int doorbell) {
        final int offset = (doorbell >>> 6) << 3;
        final long bit = 1L << doorbell;
        long word;
        do {
            word = page.getLongVolatile(offset);
            if ((word & bit) != 0) {
                return;
            }
        } while (!page.compareAndSetLong(offset, word, word | bit));
    }

    // ------------------------------------------------------------------------------------------------ sleeping

    /** @return true if the loop's thread can sleep on this page's sleep word, woken by any process that maps it */
    public static boolean canSleep() {
        return Futex.AVAILABLE;
    }

    /**
     * The loop is about to look for work one last time and then sleep (loop): a volatile store, so that its look comes
     * after any waker can see the word. Only where {@link #canSleep()}.
     */
    public void sayAsleep() {
        page.putIntVolatile(SLEEP_OFFSET, 1);
    }

    /**
     * Sleeps at most {@code nanos} unless a waker took the sleep word since {@link #sayAsleep()} (loop), then says the
     * loop is awake. May return early.
     *
     * @param timespec sixteen bytes of the loop's, for the system call
     */
    public void sleep(final java.lang.foreign.MemorySegment timespec, final long nanos) {
        Futex.await(page.addressOffset() + SLEEP_OFFSET, 1, timespec, nanos);
        sayAwake();
    }

    /** The loop is awake (loop): wakers need not wake it. */
    public void sayAwake() {
        page.putIntVolatile(SLEEP_OFFSET, 0);
    }

    /** @return true if a doorbell of the page rang and was not taken yet (loop, in its last look before it sleeps) */
    public boolean anyRung() {
        for (int word = 0; word < wordsInUse; word++) {
            if (page.getLongVolatile(word << 3) != 0) {
                return true;
            }
        }
        return false;
    }

    /** Wakes this page's loop if it sleeps (any thread of this process, while the page is open). */
    public void wake() {
        wake(page);
    }

    /**
     * Wakes the loop of {@code page} if it said it sleeps (any thread, any process mapping the page, after the writes
     * the loop must see and a full fence): one read while it does not; while it does, the first waker takes the word
     * and makes the system call, the others only read.
     */
    static void wake(final AtomicBuffer page) {
        if (page.getIntVolatile(SLEEP_OFFSET) != 0 && Futex.AVAILABLE && page.compareAndSetInt(SLEEP_OFFSET, 1, 0)) {
            Futex.wake(page.addressOffset() + SLEEP_OFFSET);
        }
    }

    @Override
    public void close() {
        region.close();
    }
}
