package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.ProtectionDomain;
import io.rdmareactive.spi.WorkRequestOpcode;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The one-sided operations of one connection, in the order the application submitted them: a bounded ring of the
 * ones waiting to be posted and the ones in flight. Each duty cycle posts waiting ones while fewer than
 * {@link #maxInFlight()} are in flight and the send queue has room beside the streams' own work; their completions
 * arrive in post order, as every send of a reliable queue pair does ({@link CompletionOrder}), are recorded while
 * completions are polled and delivered afterwards ({@link #deliver()}), so an operation's subscriber runs outside the
 * poll and may submit the next operation, which is posted in the same cycle. An atomic's original value lands in a
 * word of a small scratch region of the connection's own, one word per operation in flight. Loop only; allocates
 * nothing per operation.
 */
final class OneSidedQueue {

    /** The kind of a one-sided operation's work request id (the top 2 bits; the low 48 bits are its sequence). */
    static final long KIND = 3L << 62;
    /** Operations waiting and in flight at most; a submission beyond is refused. */
    static final int CAPACITY = 4096;

    static final int OK = 0;
    static final int FULL = 1;
    static final int ENDED = 2;

    private final ProtocolConnection connection;
    private final ProtectionDomain domain;
    /** The first ring a connection's first operation allocates; it doubles as more wait, up to {@link #CAPACITY}. */
    static final int INITIAL_CAPACITY = 64;

    /**
     * The operations, by sequence, in a ring that grows as more wait (a connection that never submits one holds
     * none: a thousand idle connections cost nothing here).
     */
    private OneSidedOperation[] operations;
    /** An operation's outcome, once recorded: its atomic's original value, or its failure's status. */
    private long[] originals;
    private int[] statuses;
    private String[] reasons;
    private int mask = -1;
    private final int maxInFlight;
    private MemoryRegion scratch;
    private AtomicBuffer scratchWords;
    private long submitted;
    private long posted;
    /** Completions recorded up to here; delivered up to {@link #delivered}. */
    private long completed;
    private long delivered;

    /** @param maxOutstandingSends the sends the connection keeps in flight at most, its streams' work included */
    OneSidedQueue(final ProtocolConnection connection, final ProtectionDomain domain, final int maxOutstandingSends) {
        this.connection = connection;
        this.domain = domain;
        this.maxInFlight = maxInFlight(maxOutstandingSends);
    }

    /** @return the one-sided operations a connection of that send depth keeps in flight: half of it, 8 to 64 */
    static int maxInFlight(final int maxOutstandingSends) {
        return Math.max(8, Math.min(64, Integer.highestOneBit(maxOutstandingSends / 2)));
    }

    /** @return how many operations are posted at most at once */
    int maxInFlight() {
        return maxInFlight;
    }

    /**
     * Takes an operation, to be posted in this or the next duty cycle (loop).
     *
     * @return {@link #OK}, {@link #FULL} when {@link #CAPACITY} wait or are in flight, {@link #ENDED} when the
     *     connection ended
     */
    int submit(final OneSidedOperation operation) {
        if (connection.isTerminated()) {
            return ENDED;
        }
        if (operations == null || submitted - delivered > mask) {
            if (operations != null && operations.length == CAPACITY) {
                return FULL;
            }
            grow(operations == null ? INITIAL_CAPACITY : operations.length * 2);
        }
        final int slot = (int) (submitted & mask);
        operations[slot] = operation;
        statuses[slot] = CompletionStatus.SUCCESS;
        reasons[slot] = null;
        submitted++;
        return OK;
    }

    /** Moves the ring into one of {@code capacity} slots, each operation still at its sequence's slot. */
    private void grow(final int capacity) {
        final OneSidedOperation[] newOperations = new OneSidedOperation[capacity];
        final long[] newOriginals = new long[capacity];
        final int[] newStatuses = new int[capacity];
        final String[] newReasons = new String[capacity];
        for (long sequence = delivered; sequence < submitted; sequence++) {
            final int from = (int) (sequence & mask);
            final int to = (int) (sequence & (capacity - 1));
            newOperations[to] = operations[from];
            newOriginals[to] = originals[from];
            newStatuses[to] = statuses[from];
            newReasons[to] = reasons[from];
        }
        operations = newOperations;
        originals = newOriginals;
        statuses = newStatuses;
        reasons = newReasons;
        mask = capacity - 1;
    }

    /** @return true while an operation waits to be posted */
    boolean hasWaiting() {
        return posted < submitted;
    }

    /** @return true while an operation waits, is in flight, or has an outcome not yet delivered */
    boolean isBusy() {
        return delivered < submitted;
    }

    /**
     * Posts the waiting operations into this cycle's batch, within {@link #maxInFlight()} and the send queue's room.
     *
     * @return work done
     */
    int post(final Posting posting) {
        int work = 0;
        while (posted < submitted && posted - completed < maxInFlight && posting.room(1)) {
            final OneSidedOperation operation = operations[(int) (posted & mask)];
            final long wrId = KIND | (posted & Posting.POSITION_MASK);
            if (WorkRequestOpcode.isAtomic(operation.opcode())) {
                if (scratch == null && !allocateScratch()) {
                    return work;
                }
                final int word = (int) (posted & (maxInFlight - 1)) * Long.BYTES;
                scratchWords.putLong(word, 0L);
                posting.addAtomic(wrId, operation, scratch.address() + word, scratch.lkey());
            } else {
                posting.addOneSided(wrId, operation);
            }
            posted++;
            work++;
        }
        return work;
    }

    private boolean allocateScratch() {
        try {
            scratch = domain.allocateRegion(Math.max(4096, maxInFlight * Long.BYTES), Access.LOCAL_WRITE);
            scratchWords = scratch.buffer();
            return true;
        } catch (final RuntimeException ex) {
            connection.fail("the connection could not register the words its atomics return their values into: " + ex);
            return false;
        }
    }

    /** The next operation in flight completed (while completions are polled): recorded, delivered after the poll. */
    void onCompleted() {
        final int slot = (int) (completed & mask);
        if (WorkRequestOpcode.isAtomic(operations[slot].opcode())) {
            originals[slot] = scratchWords.getLongVolatile((int) (completed & (maxInFlight - 1)) * Long.BYTES);
        }
        completed++;
    }

    /** The next operation in flight failed with {@code status} (while completions are polled): recorded. */
    void onFailed(final int status, final String reason) {
        final int slot = (int) (completed & mask);
        statuses[slot] = status;
        reasons[slot] = reason;
        completed++;
    }

    /** @return true if work request {@code wrId} is a one-sided operation's */
    static boolean isOneSided(final long wrId) {
        return (wrId & Posting.KIND_MASK) == KIND;
    }

    /**
     * Tells the operations that completed their outcome, in order (loop, outside the poll).
     *
     * @return work done
     */
    int deliver() {
        int work = 0;
        while (delivered < completed) {
            final int slot = (int) (delivered & mask);
            final OneSidedOperation operation = operations[slot];
            final int status = statuses[slot];
            final String reason = reasons[slot];
            operations[slot] = null;
            reasons[slot] = null;
            delivered++;
            if (status == CompletionStatus.SUCCESS) {
                operation.onCompleted(originals[slot]);
            } else {
                operation.onFailed(status, reason);
            }
            work++;
        }
        return work;
    }

    /**
     * The connection ended (loop): the outcomes recorded are delivered, and every other operation fails with
     * {@code reason}; the scratch region is released.
     */
    void failAll(final String reason) {
        deliver();
        while (delivered < submitted) {
            final int slot = (int) (delivered & mask);
            final OneSidedOperation operation = operations[slot];
            operations[slot] = null;
            delivered++;
            operation.onFailed(OneSidedOperation.CONNECTION_ENDED, reason);
        }
        completed = posted = submitted;
        if (scratch != null) {
            scratch.close();
            scratch = null;
        }
    }
}
