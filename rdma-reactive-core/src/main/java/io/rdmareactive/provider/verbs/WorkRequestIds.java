package io.rdmareactive.provider.verbs;

/**
 * The {@code wr_id} the provider gives each work request it posts: bit 63 says receive, bits 32 to 62 name the queue
 * pair's slot on its device, bits 0 to 31 hold the request's sequence number on its queue. From it a completion finds
 * its queue pair without a lookup by queue pair number, the caller's work request id (kept in the queue pair, indexed
 * by sequence), and how much of the queue's work is done (queues complete in order).
 */
final class WorkRequestIds {

    static final int MAX_SLOTS = 1 << 16;
    private static final long RECEIVE = 1L << 63;

    private WorkRequestIds() {
    }

    static long send(final int slot, final long sequence) {
        return ((long) slot << 32) | (sequence & 0xFFFF_FFFFL);
    }

    static long receive(final int slot, final long sequence) {
        return RECEIVE | ((long) slot << 32) | (sequence & 0xFFFF_FFFFL);
    }

    static boolean isReceive(final long wrId) {
        return wrId < 0;
    }

    static int slot(final long wrId) {
        return (int) ((wrId >>> 32) & 0x7FFF_FFFFL);
    }

    /** @return the full sequence number of {@code wrId}, given the count of requests completed before it */
    static long sequence(final long wrId, final long completed) {
        return completed + (((int) wrId - (int) completed) & 0xFFFF_FFFFL);
    }
}
