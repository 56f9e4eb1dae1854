package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.RdmaException;

/**
 * The one receive of the authenticated handshake: 64 bytes of the local region (only this side's adapter writes
 * there; the peer gets no key to it), posted when the queue pair is created, before the peer can send.
 */
final class AuthReceive {

    /** The receive's work request id, apart from the data path's (which count up from 0). */
    static final long WR_ID = Long.MIN_VALUE;
    /** Bytes of the receive buffer: a message longer than that fails the receive on the adapter. */
    static final int LENGTH = ConnectionLayout.LINE;

    private final MemoryRegion local;
    private final long offset;

    /** @param options the settings: where the staging lines are (the receive uses line 1, the send line 0) */
    AuthReceive(final MemoryRegion local, final ProtocolOptions options) {
        this.local = local;
        this.offset = ConnectionLayout.lineOffset(1, options.maxStreams(), options.ringCapacity());
    }

    /** @return the offset in the local region of the line the exchange sends from (line 0, before the receive) */
    long sendOffset() {
        return offset - LENGTH;
    }

    /** Posts the receive on a queue pair just created. */
    void post(final QueuePair queuePair) {
        final ReceiveWorkRequest request = queuePair.newReceiveRequest(1);
        request.clear().add(WR_ID).sge(local.address() + offset, LENGTH, local.lkey());
        final int status = queuePair.postReceive(request);
        if (status != PostStatus.OK) {
            throw new RdmaException("posting the authenticated handshake's receive failed: " + PostStatus.name(status));
        }
    }

    /** @return the received bytes, a copy */
    byte[] read(final int length) {
        final byte[] bytes = new byte[length];
        new org.agrona.concurrent.UnsafeBuffer(local.address() + offset, LENGTH).getBytes(0, bytes);
        return bytes;
    }

    /** Zeroes the send and receive lines, before the data path starts using them. */
    void clear() {
        new org.agrona.concurrent.UnsafeBuffer(local.address() + sendOffset(), 2 * LENGTH)
            .setMemory(0, 2 * LENGTH, (byte) 0);
    }
}
