package io.rdmareactive.provider.shm;

/**
 * What the send and receive batches of this provider share: the requests' ids, their scatter-gather entries (room for
 * {@code maxSge} per request, in parallel arrays allocated once) and the batch's count, capacity and failed index.
 * {@link ShmSendRequest} adds the send fields; {@link ShmReceiveRequest} has none. Nothing is allocated after
 * construction; not thread safe (one batch per poster).
 */
abstract class ShmWorkBatch {

    final int capacity;
    final int maxSge;
    final long[] wrId;
    private final String batch;
    private final String item;
    private final int[] sgeCount;
    private final boolean[] sgeOverflow;
    private final long[] sgeAddress;
    private final int[] sgeLength;
    private final int[] sgeLkey;
    int count;
    int failedIndex = -1;

    /**
     * @param batch    "send" or "receive", for the messages of misuse
     * @param item     what the batch holds, "request" or "receive", likewise
     * @param capacity the most requests, positive
     * @param maxSge   the most scatter-gather entries of one request
     */
    ShmWorkBatch(final String batch, final String item, final int capacity, final int maxSge) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a " + batch + " batch needs a positive capacity: " + capacity);
        }
        this.batch = batch;
        this.item = item;
        this.capacity = capacity;
        this.maxSge = maxSge;
        wrId = new long[capacity];
        sgeCount = new int[capacity];
        sgeOverflow = new boolean[capacity];
        sgeAddress = new long[capacity * maxSge];
        sgeLength = new int[capacity * maxSge];
        sgeLkey = new int[capacity * maxSge];
    }

    /** Empties the batch. */
    final void reset() {
        count = 0;
        failedIndex = -1;
    }

    /**
     * Appends a request with no entries yet.
     *
     * @return its index
     * @throws IllegalStateException if the batch is full
     */
    final int append(final long id) {
        if (count == capacity) {
            throw new IllegalStateException("the " + batch + " batch is full (" + capacity + " " + item
                + "s); post it first");
        }
        final int i = count++;
        wrId[i] = id;
        sgeCount[i] = 0;
        sgeOverflow[i] = false;
        return i;
    }

    /**
     * @return the index of the last request appended
     * @throws IllegalStateException if there is none
     */
    final int current() {
        if (count == 0) {
            throw new IllegalStateException("add(...) a " + item + " before describing it");
        }
        return count - 1;
    }

    /**
     * Appends an entry to the last request; one past {@code maxSge} is not written but marks the request, which its
     * post then refuses ({@link #overflowed(int)}).
     */
    final void addSge(final long address, final int length, final int lkey) {
        final int i = current();
        final int k = sgeCount[i];
        if (k == maxSge) {
            sgeOverflow[i] = true;
            return;
        }
        sgeAddress[i * maxSge + k] = address;
        sgeLength[i * maxSge + k] = length;
        sgeLkey[i * maxSge + k] = lkey;
        sgeCount[i] = k + 1;
    }

    /** @return true if request {@code i} was given more than {@code maxSge} entries */
    final boolean overflowed(final int i) {
        return sgeOverflow[i];
    }

    /** @return the number of entries of request {@code i} */
    final int sgeCount(final int i) {
        return sgeCount[i];
    }

    /** @return the address of entry {@code k} of request {@code i} */
    final long sgeAddress(final int i, final int k) {
        return sgeAddress[i * maxSge + k];
    }

    /** @return the length of entry {@code k} of request {@code i} */
    final int sgeLength(final int i, final int k) {
        return sgeLength[i * maxSge + k];
    }

    /** @return the lkey of entry {@code k} of request {@code i} */
    final int sgeLkey(final int i, final int k) {
        return sgeLkey[i * maxSge + k];
    }

    /** @return the sum of the lengths of request {@code i}'s entries */
    final long totalLength(final int i) {
        long total = 0;
        for (int k = 0; k < sgeCount[i]; k++) {
            total += sgeLength[i * maxSge + k];
        }
        return total;
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
}
