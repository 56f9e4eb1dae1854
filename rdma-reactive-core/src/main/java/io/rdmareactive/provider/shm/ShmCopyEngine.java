package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The copy engine of a shared-memory queue pair: resolves a send request's gather list against this device's region
 * table (or, inline, against the whole address space) and a peer receive's scatter list against the peer's, then
 * copies the bytes between the two processes' mappings, or applies an atomic to a mapped word. The lists are scratch
 * arrays reused for every request: only the posting thread touches them, and nothing here allocates, locks or throws.
 */
final class ShmCopyEngine {

    /** This process's whole address space, for inline payloads, which verbs copies from any address at post time. */
    @SuppressWarnings("restricted") // every JVM of this project runs with --enable-native-access=ALL-UNNAMED
    private static final MemorySegment ADDRESS_SPACE = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    /** A peer's 64-bit word, read and changed atomically (native byte order, 8-byte aligned). */
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle ORIGINAL = ValueLayout.JAVA_LONG.varHandle();

    private final ShmDevice device;
    /** The protection domain of the queue pair (0: the device's own). */
    private final int domain;

    // one request's gather list and one receive's scatter list
    private final MemorySegment[] gatherSegment;
    private final long[] gatherOffset;
    private final int[] gatherLength;
    private int gatherCount;
    private MemorySegment[] scatterSegment = new MemorySegment[0];
    private long[] scatterOffset = new long[0];
    private int[] scatterLength = new int[0];
    /** Where an atomic's value before is put, then copied to the request's local buffer (the posting thread's). */
    private final MemorySegment atomicResult = Arena.ofAuto().allocate(Long.BYTES, Long.BYTES);

    ShmCopyEngine(final ShmDevice device, final int domain, final int maxSendSge) {
        this.device = device;
        this.domain = domain;
        this.gatherSegment = new MemorySegment[maxSendSge];
        this.gatherOffset = new long[maxSendSge];
        this.gatherLength = new int[maxSendSge];
    }

    /** Makes room for the scatter lists of the connected peer's receives, {@code peerSge} entries each. */
    void peerConnected(final int peerSge) {
        scatterSegment = new MemorySegment[peerSge];
        scatterOffset = new long[peerSge];
        scatterLength = new int[peerSge];
    }

    /** @return the total length, or -1 if an entry fails its check */
    long resolveGather(final ShmSendRequest batch, final int i, final int requiredAccess) {
        long total = 0;
        for (int k = 0; k < batch.sgeCount(i); k++) {
            final int lkey = batch.sgeLkey(i, k);
            final ShmMemoryRegion region = device.localRegion(lkey);
            final long address = batch.sgeAddress(i, k);
            final int length = batch.sgeLength(i, k);
            if (region == null || length < 0 || !region.holds(lkey, address, length)
                || !Access.allows(region.access(), requiredAccess) || region.domain() != domain) {
                return -1;
            }
            gatherSegment[k] = region.segment();
            gatherOffset[k] = address - region.address();
            gatherLength[k] = length;
            total += length;
        }
        gatherCount = batch.sgeCount(i);
        return total;
    }

    /**
     * Inline payloads need no lkey, as on verbs: they are read from the caller's addresses now, before the post
     * returns, so the buffers may be reused at once. (An address that is not readable memory is the caller's bug, as
     * it is in C.)
     *
     * @return the total length, or -1 if an entry is malformed
     */
    long resolveInline(final ShmSendRequest batch, final int i) {
        long total = 0;
        for (int k = 0; k < batch.sgeCount(i); k++) {
            final long address = batch.sgeAddress(i, k);
            final int length = batch.sgeLength(i, k);
            if (length < 0 || length > 0 && address <= 0) {
                return -1;
            }
            final int lkey = batch.sgeLkey(i, k);
            final ShmMemoryRegion region = device.localRegion(lkey);
            if (region != null && region.holds(lkey, address, length)) {
                gatherSegment[k] = region.segment();
                gatherOffset[k] = address - region.address();
            } else {
                gatherSegment[k] = ADDRESS_SPACE;
                gatherOffset[k] = address;
            }
            gatherLength[k] = length;
            total += length;
        }
        gatherCount = batch.sgeCount(i);
        return total;
    }

    /** @return the number of scatter entries, or -2 if an entry fails the peer's table */
    int resolveScatter(final PeerView remote, final long receive) {
        final QueuePairFile remoteQp = remote.queuePair;
        final int count = remoteQp.slotSgeCount(receive);
        if (count < 0 || count > scatterSegment.length) {
            return -2;
        }
        for (int k = 0; k < count; k++) {
            final int lkey = remoteQp.sgeLkey(receive, k);
            final long address = remoteQp.sgeAddress(receive, k);
            final int length = remoteQp.sgeLength(receive, k);
            final long offset = RegionTable.isRemoteKey(lkey) || length < 0 ? -1
                : remote.regions.offset(lkey, address, length, Access.LOCAL_WRITE, remoteQp.domain());
            final MemorySegment segment = offset < 0 ? null : remote.segment(lkey);
            if (segment == null || offset > segment.byteSize() - length) {
                return -2;
            }
            scatterSegment[k] = segment;
            scatterOffset[k] = offset;
            scatterLength[k] = length;
        }
        return count;
    }

    long scatterTotal(final int count) {
        long total = 0;
        for (int k = 0; k < count; k++) {
            total += scatterLength[k];
        }
        return total;
    }

    /** Copies the gather list to one contiguous range. */
    void scatterTo(final MemorySegment target, final long offset) {
        long at = offset;
        for (int k = 0; k < gatherCount; k++) {
            MemorySegment.copy(gatherSegment[k], gatherOffset[k], target, at, gatherLength[k]);
            at += gatherLength[k];
        }
    }

    /** Copies one contiguous range into the gather list (RDMA READ). */
    void gatherFrom(final MemorySegment source, final long offset) {
        long at = offset;
        for (int k = 0; k < gatherCount; k++) {
            MemorySegment.copy(source, at, gatherSegment[k], gatherOffset[k], gatherLength[k]);
            at += gatherLength[k];
        }
    }

    /** Copies the gather list into the first {@code scatterCount} entries of the scatter list, which hold it all. */
    void copyGatherToScatter(final int scatterCount) {
        int target = 0;
        long targetUsed = 0;
        for (int k = 0; k < gatherCount; k++) {
            long sourceUsed = 0;
            while (sourceUsed < gatherLength[k]) {
                while (targetUsed == scatterLength[target]) {
                    target++;
                    targetUsed = 0;
                }
                final long chunk = Math.min(gatherLength[k] - sourceUsed, scatterLength[target] - targetUsed);
                MemorySegment.copy(gatherSegment[k], gatherOffset[k] + sourceUsed, scatterSegment[target],
                    scatterOffset[target] + targetUsed, chunk);
                sourceUsed += chunk;
                targetUsed += chunk;
            }
        }
    }

    /**
     * Applies an atomic to the 8-byte aligned word at {@code offset} of {@code target}, a hardware atomic on the mapped
     * page (atomic against any process's atomics on the same word), and copies the word's value before into the
     * gather list.
     */
    void atomic(final int opcode, final MemorySegment target, final long offset, final long compareAdd,
                final long swap) {
        final long before = opcode == WorkRequestOpcode.ATOMIC_CMP_AND_SWP
            ? (long) WORD.compareAndExchange(target, offset, compareAdd, swap)
            : (long) WORD.getAndAdd(target, offset, compareAdd);
        ORIGINAL.set(atomicResult, 0L, before);
        gatherFrom(atomicResult, 0);
    }
}
