package io.rdmareactive;

import io.rdmareactive.spi.WorkRequestOpcode;
import java.util.Objects;

/**
 * One one-sided operation on a {@link RemoteRegion}, as a value, for {@link RemoteRegion#execute}: a read or write
 * between a range of the remote region and a range of a {@link LocalRegion} of the same connection, or a 64-bit atomic
 * on an 8-byte aligned word of the remote region.
 */
public final class RemoteOperation {

    final int opcode;
    final long offset;
    final LocalRegion local;
    final long localOffset;
    final int length;
    final long compareAdd;
    final long swap;

    private RemoteOperation(final int opcode, final long offset, final LocalRegion local, final long localOffset,
                            final int length, final long compareAdd, final long swap) {
        this.opcode = opcode;
        this.offset = offset;
        this.local = local;
        this.localOffset = localOffset;
        this.length = length;
        this.compareAdd = compareAdd;
        this.swap = swap;
    }

    /**
     * Reads {@code length} bytes at {@code offset} of the remote region into {@code target} at {@code targetOffset}.
     * Its result in {@link RemoteRegion#execute} is the length.
     */
    public static RemoteOperation read(final long offset, final LocalRegion target, final long targetOffset,
                                       final int length) {
        return new RemoteOperation(WorkRequestOpcode.RDMA_READ, offset, Objects.requireNonNull(target, "target"),
            targetOffset, length, 0, 0);
    }

    /**
     * Writes {@code length} bytes of {@code source} at {@code sourceOffset} to {@code offset} of the remote region. Its
     * result in {@link RemoteRegion#execute} is the length.
     */
    public static RemoteOperation write(final long offset, final LocalRegion source, final long sourceOffset,
                                        final int length) {
        return new RemoteOperation(WorkRequestOpcode.RDMA_WRITE, offset, Objects.requireNonNull(source, "source"),
            sourceOffset, length, 0, 0);
    }

    /** Adds {@code delta} to the word at {@code offset}; its result is the word's value before. */
    public static RemoteOperation fetchAndAdd(final long offset, final long delta) {
        return new RemoteOperation(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, offset, null, 0, Long.BYTES, delta, 0);
    }

    /**
     * Sets the word at {@code offset} to {@code desired} if it holds {@code expected}; its result is the word's value
     * before (equal to {@code expected} when it swapped).
     */
    public static RemoteOperation compareAndSwap(final long offset, final long expected, final long desired) {
        return new RemoteOperation(WorkRequestOpcode.ATOMIC_CMP_AND_SWP, offset, null, 0, Long.BYTES, expected,
            desired);
    }

    /** @return what the operation does, for messages: READ, WRITE, FETCH_AND_ADD or COMPARE_AND_SWAP */
    String name() {
        return switch (opcode) {
            case WorkRequestOpcode.RDMA_READ -> "READ";
            case WorkRequestOpcode.RDMA_WRITE -> "WRITE";
            case WorkRequestOpcode.ATOMIC_FETCH_AND_ADD -> "FETCH_AND_ADD";
            default -> "COMPARE_AND_SWAP";
        };
    }

    boolean isAtomic() {
        return WorkRequestOpcode.isAtomic(opcode);
    }

    @Override
    public String toString() {
        return name() + " of " + length + " bytes at offset " + offset;
    }
}
