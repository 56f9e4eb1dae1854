package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.CompletionOpcode;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.PostStatus;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The receive queue of a shared-memory queue pair: the receives it posts into the slots of its file, where the peer's
 * posting thread takes them; the regions each posted receive holds until its completion is polled; and the flush of
 * the receives nobody took, when the queue pair enters the error state or closes. Posting allocates, locks and throws
 * nothing.
 */
final class ShmReceiveQueue {

    private final ShmDevice device;
    private final QueuePairFile file;
    private final ShmCompletionQueue completions;
    private final int number;
    private final int receiveSge;
    private final ShmMemoryRegion[] slotRegions;
    private final AtomicIntegerArray slotPending;

    /**
     * @param device      the device whose regions the receives name
     * @param file        the queue pair's file, which holds the slots
     * @param completions the receive completion queue
     * @param number      the queue pair's number, in its completions
     * @param receiveSge  the most scatter entries of a receive
     */
    ShmReceiveQueue(final ShmDevice device, final QueuePairFile file, final ShmCompletionQueue completions,
                    final int number, final int receiveSge) {
        this.device = device;
        this.file = file;
        this.completions = completions;
        this.number = number;
        this.receiveSge = receiveSge;
        this.slotRegions = new ShmMemoryRegion[file.depth() * receiveSge];
        this.slotPending = new AtomicIntegerArray(file.depth());
    }

    /** Posts a batch of receives ({@link io.rdmareactive.spi.QueuePair#postReceive}); a {@link PostStatus}. */
    int post(final ShmReceiveRequest batch) {
        if (batch.maxSge != receiveSge) {
            return PostStatus.INVALID;
        }
        batch.failedIndex = -1;
        long producer = file.producer();
        final long consumer = file.consumer();
        for (int i = 0; i < batch.count; i++) {
            if (batch.overflowed(i)) {
                batch.failedIndex = i;
                file.publish(producer);
                return PostStatus.INVALID;
            }
            if (file.state() == QueuePairFile.STATE_ERROR) {
                completions.ring().offer(batch.wrId[i], CompletionStatus.WR_FLUSH_ERR, CompletionOpcode.RECV, 0, 0,
                    number, 0, -1);
                continue;
            }
            final int slot = file.slotOf(producer);
            if (producer - consumer >= file.depth() || slotPending.get(slot) != 0) {
                batch.failedIndex = i;
                file.publish(producer);
                return PostStatus.QUEUE_FULL;
            }
            final int count = batch.sgeCount(i);
            file.writeSlot(producer, batch.wrId[i], count);
            for (int k = 0; k < count; k++) {
                final int lkey = batch.sgeLkey(i, k);
                file.writeSge(producer, k, batch.sgeAddress(i, k), batch.sgeLength(i, k), lkey);
                final ShmMemoryRegion region = device.localRegion(lkey);
                if (region != null) {
                    region.addOutstanding();
                }
                slotRegions[slot * receiveSge + k] = region;
            }
            for (int k = count; k < receiveSge; k++) {
                slotRegions[slot * receiveSge + k] = null;
            }
            slotPending.set(slot, 1);
            producer++;
        }
        file.publish(producer);
        if (file.state() == QueuePairFile.STATE_ERROR) {
            flush(); // an error raced with this post: what was just published completes flushed
        }
        return PostStatus.OK;
    }

    /** Called when a receive completion of this queue is polled: the work on its regions is done. */
    void completed(final int slot) {
        if (slot >= 0 && slot < slotPending.length() && slotPending.getAndSet(slot, 0) != 0) {
            for (int k = 0; k < receiveSge; k++) {
                final ShmMemoryRegion region = slotRegions[slot * receiveSge + k];
                if (region != null) {
                    region.completeOutstanding();
                }
            }
        }
    }

    /** Completes every posted receive that nobody has taken with {@link CompletionStatus#WR_FLUSH_ERR}. */
    void flush() {
        // bounded by the receives this side can have posted: the indexes live in the file the peer writes too, and
        // garbage there (a consumer index of Long.MIN_VALUE) must not make this loop for ever
        for (int taken = 0; taken <= slotPending.length(); taken++) {
            final long consumer = file.consumer();
            final long producer = file.producer();
            if (consumer >= producer || producer - consumer > slotPending.length()) {
                return;
            }
            final long wrId = file.slotWrId(consumer);
            if (file.take(consumer)) {
                completions.ring().offer(wrId, CompletionStatus.WR_FLUSH_ERR, CompletionOpcode.RECV, 0, 0, number, 0,
                    file.slotOf(consumer));
            }
        }
    }

    /**
     * On close: takes back every receive no peer will complete now, without completions, then releases what every
     * posted receive held.
     */
    void reclaim() {
        for (int taken = 0; taken <= slotPending.length(); taken++) { // bounded: the indexes are in a shared file
            final long consumer = file.consumer();
            final long producer = file.producer();
            if (consumer >= producer || producer - consumer > slotPending.length()) {
                break;
            }
            file.take(consumer);
        }
        for (int slot = 0; slot < slotPending.length(); slot++) {
            completed(slot);
        }
    }
}
