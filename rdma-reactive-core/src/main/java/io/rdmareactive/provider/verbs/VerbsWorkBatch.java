package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rdmareactive.spi.PostStatus;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/**
 * What the send and receive batches of this provider share: a run of work requests ({@code struct ibv_send_wr} or
 * {@code struct ibv_recv_wr}, which begin alike: {@code wr_id}, {@code next}, {@code sg_list}, {@code num_sge}) in
 * native memory allocated once with the queue pair's device, their {@link ScatterGatherTable entries}, the caller's
 * work request ids (kept here until the queue pair assigns the provider's own at post time), the batch's count,
 * capacity, first request with too many entries, and the failed index of its last post. {@link VerbsSendRequest}
 * adds the send fields; {@link VerbsReceiveRequest} has none. Nothing is allocated after construction; not thread
 * safe (one batch per poster).
 */
abstract class VerbsWorkBatch {

    /** The requests, {@code wrSize} bytes apart. */
    final MemorySegment wrs;
    private final VerbsQueuePair owner;
    private final ScatterGatherTable entries;
    private final String batch;
    private final String item;
    private final long wrSize;
    private final long idOffset;
    private final long nextOffset;
    private final long sgListOffset;
    private final long numSgeOffset;
    private final int capacity;
    private final long[] userWrIds;
    private int count;
    private int overflowIndex = -1;
    /** Why the post under way stops short of the batch's end ({@link #postable}), a {@link PostStatus}. */
    private int stopStatus = PostStatus.OK;
    int failedIndex = -1;

    /**
     * @param batch    "send" or "receive", for the messages of misuse
     * @param item     what the batch holds, "request" or "receive", likewise
     * @param layout   the work request, {@link VerbsLayouts#IBV_SEND_WR} or {@link VerbsLayouts#IBV_RECV_WR}
     * @param owner    the queue pair that made the batch and alone posts it
     * @param wrs      room for {@code capacity} requests
     * @param sges     room for {@code maxSge} entries of each request
     * @param capacity the most requests, positive
     * @param maxSge   the most scatter-gather entries of one request
     */
    VerbsWorkBatch(final String batch, final String item, final StructLayout layout, final VerbsQueuePair owner,
                   final MemorySegment wrs, final MemorySegment sges, final int capacity, final int maxSge) {
        this.batch = batch;
        this.item = item;
        this.wrSize = layout.byteSize();
        this.idOffset = VerbsLayouts.offset(layout, "wr_id");
        this.nextOffset = VerbsLayouts.offset(layout, "next");
        this.sgListOffset = VerbsLayouts.offset(layout, "sg_list");
        this.numSgeOffset = VerbsLayouts.offset(layout, "num_sge");
        this.owner = owner;
        this.wrs = wrs;
        this.entries = new ScatterGatherTable(sges, capacity, maxSge);
        this.capacity = capacity;
        this.userWrIds = new long[capacity];
    }

    final VerbsQueuePair owner() {
        return owner;
    }

    /** Empties the batch. */
    final void reset() {
        count = 0;
        overflowIndex = -1;
    }

    /**
     * Appends a request with no entries yet: its id, the list of its entries, and no provider id or link yet.
     *
     * @return its index
     * @throws IllegalStateException if the batch is full
     */
    final int append(final long wrId) {
        if (count == capacity) {
            throw new IllegalStateException("the " + batch + " batch is full: it holds " + capacity + " " + item + "s");
        }
        final int index = count++;
        final long wr = wr(index);
        userWrIds[index] = wrId;
        entries.reset(index);
        wrs.set(JAVA_LONG, wr + idOffset, 0L);
        wrs.set(JAVA_LONG, wr + nextOffset, 0L);
        wrs.set(JAVA_LONG, wr + sgListOffset, entries.listAddress(index));
        wrs.set(JAVA_INT, wr + numSgeOffset, 0);
        return index;
    }

    /**
     * @return the index of the last request appended
     * @throws IllegalStateException if there is none
     */
    final int current() {
        if (count == 0) {
            throw new IllegalStateException("add a " + item + " to the batch first");
        }
        return count - 1;
    }

    /** @return the offset of request {@code index} in {@link #wrs} */
    final long wr(final int index) {
        return index * wrSize;
    }

    /**
     * Appends an entry to the last request; one past {@code maxSge} is not written but marks the request, at which
     * its post then stops ({@link #postable}).
     */
    final void addSge(final long address, final int length, final int lkey) {
        final int index = current();
        final int n = entries.add(index, address, length, lkey);
        if (n < 0) {
            if (overflowIndex < 0) {
                overflowIndex = index;
            }
        } else {
            wrs.set(JAVA_INT, wr(index) + numSgeOffset, n);
        }
    }

    /** @return the requests in the batch (the SPI's {@code count()}) */
    public final int count() {
        return count;
    }

    /** @return the most requests the batch holds (the SPI's {@code capacity()}) */
    public final int capacity() {
        return capacity;
    }

    /** @return the index of the request the last post stopped at, or -1 (the SPI's {@code failedIndex()}) */
    public final int failedIndex() {
        return failedIndex;
    }

    // ------------------------------------------------------------------------------------------ for the queue pair

    /**
     * Starts a post: how many of the batch's requests it hands on, with room for {@code room} more on the queue. It
     * stops before the first request with too many entries ({@link PostStatus#INVALID}), and at the room
     * ({@link PostStatus#QUEUE_FULL}); {@link #posted} reports why.
     */
    final int postable(final long room) {
        int postable = count;
        stopStatus = PostStatus.OK;
        if (overflowIndex >= 0) {
            postable = overflowIndex;
            stopStatus = PostStatus.INVALID;
        }
        if (postable > room) {
            postable = (int) Math.max(0, room);
            stopStatus = PostStatus.QUEUE_FULL;
        }
        return postable;
    }

    /**
     * Ends a post that handed on the first {@code posted} requests of those {@link #postable} allowed.
     *
     * @return the post's status: OK, or why it stopped short
     */
    final int posted(final int posted) {
        failedIndex = stopStatus == PostStatus.OK ? -1 : posted;
        return stopStatus;
    }

    final long userWrId(final int index) {
        return userWrIds[index];
    }

    final int sgeCount(final int index) {
        return entries.count(index);
    }

    final int sgeLkey(final int index, final int sge) {
        return entries.lkey(index, sge);
    }

    /** Gives request {@code index} the provider's id and links it to the next, or ends the list after {@code last}. */
    final void link(final int index, final long providerWrId, final boolean last) {
        final long wr = wr(index);
        wrs.set(JAVA_LONG, wr + idOffset, providerWrId);
        wrs.set(JAVA_LONG, wr + nextOffset, last ? 0L : wrs.address() + wr(index + 1));
    }

    final MemorySegment first() {
        return wrs;
    }

    /** @return the index of the request at native address {@code address} */
    final int indexOf(final long address) {
        return (int) ((address - wrs.address()) / wrSize);
    }
}
