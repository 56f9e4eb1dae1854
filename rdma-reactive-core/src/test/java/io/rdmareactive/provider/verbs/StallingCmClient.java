package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A hostile client written against librdmacm through FFM, outside the provider: it sends connect requests with the
 * private data it is given and never completes them. Its requests carry no queue pair (a queue-pair number of its
 * choosing), so librdmacm hands it the listener's answer as {@code RDMA_CM_EVENT_CONNECT_RESPONSE} and waits for
 * {@code rdma_establish}, which it never calls: the listener's connection manager waits for a ready-to-use message
 * that does not come. Each request holds a connection-manager identifier until {@link #close()}.
 */
final class StallingCmClient implements AutoCloseable {

    private static final int RDMA_PS_TCP = 0x106;
    private static final int RESOLVE_MILLIS = 2_000;
    private static final short POLLIN = 1;

    private final VerbsLibrary lib = VerbsLibrary.get();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment capture = NativeCall.captureSegment(arena);
    private final MemorySegment channel;
    private final List<MemorySegment> ids = new ArrayList<>();

    StallingCmClient() {
        channel = VerbsLibrary.pointer(lib.createEventChannel, capture).reinterpret(
            VerbsLayouts.RDMA_EVENT_CHANNEL.byteSize());
    }

    /**
     * Sends one connect request and waits for the listener's answer, which it leaves unanswered.
     *
     * @return the answer: {@link CmEvent#CONNECT_RESPONSE} (accepted, now stalled) or {@link CmEvent#REJECTED}, and
     *     the private data that came with it
     */
    synchronized Answer stall(final String address, final byte[] privateData) {
        final MemorySegment slot = arena.allocate(ADDRESS);
        check(VerbsLibrary.integer(lib.createId, capture, channel, slot, MemorySegment.NULL, RDMA_PS_TCP),
            "rdma_create_id");
        final MemorySegment id = slot.get(ADDRESS, 0).reinterpret(VerbsLayouts.RDMA_CM_ID.byteSize());
        ids.add(id);
        try (Arena call = Arena.ofConfined()) {
            check(VerbsLibrary.integer(lib.resolveAddr, capture, id, MemorySegment.NULL,
                VerbsAddress.parse(address).toSockaddr(call), RESOLVE_MILLIS), "rdma_resolve_addr");
            expect(CmEvent.ADDR_RESOLVED);
            check(VerbsLibrary.integer(lib.resolveRoute, capture, id, RESOLVE_MILLIS), "rdma_resolve_route");
            expect(CmEvent.ROUTE_RESOLVED);
            final byte[] framed = PrivateData.frame(privateData, PrivateData.CONNECT_LIMIT, "a connect request");
            final MemorySegment data = call.allocate(framed.length);
            MemorySegment.copy(framed, 0, data, JAVA_BYTE, 0, framed.length);
            final MemorySegment param = call.allocate(VerbsLayouts.RDMA_CONN_PARAM);
            param.fill((byte) 0);
            param.set(ADDRESS, VerbsLayouts.offset(VerbsLayouts.RDMA_CONN_PARAM, "private_data"), data);
            param.set(JAVA_BYTE, VerbsLayouts.offset(VerbsLayouts.RDMA_CONN_PARAM, "private_data_len"),
                (byte) framed.length);
            param.set(JAVA_BYTE, VerbsLayouts.offset(VerbsLayouts.RDMA_CONN_PARAM, "retry_count"), (byte) 7);
            param.set(JAVA_INT, VerbsLayouts.offset(VerbsLayouts.RDMA_CONN_PARAM, "qp_num"), 0x4242 + ids.size());
            check(VerbsLibrary.integer(lib.connect, capture, id, param), "rdma_connect");
            return next(10_000);
        }
    }

    /** What a request got. */
    record Answer(int type, byte[] privateData) {
    }

    private void expect(final int type) {
        final Answer answer = next(RESOLVE_MILLIS * 2);
        if (answer.type() != type) {
            throw new IllegalStateException("expected connection-manager event " + type + ", got " + answer.type());
        }
    }

    /** @return the next event on the channel, acknowledged */
    private Answer next(final int timeoutMillis) {
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment fd = call.allocate(VerbsLayouts.POLLFD);
            fd.set(JAVA_INT, 0, channel.get(JAVA_INT, 0));
            fd.set(JAVA_SHORT, 4, POLLIN);
            if (VerbsLibrary.integer(lib.poll, capture, fd, 1L, timeoutMillis) <= 0) {
                throw new IllegalStateException("no connection-manager event within " + timeoutMillis + " ms");
            }
            final MemorySegment slot = call.allocate(ADDRESS);
            check(VerbsLibrary.integer(lib.getCmEvent, capture, channel, slot), "rdma_get_cm_event");
            final MemorySegment event = slot.get(ADDRESS, 0).reinterpret(VerbsLayouts.RDMA_CM_EVENT.byteSize());
            final int type = event.get(JAVA_INT, VerbsLayouts.CM_EVENT_TYPE);
            byte[] data = new byte[0];
            final MemorySegment pointer = event.get(ADDRESS, VerbsLayouts.CM_EVENT_PRIVATE_DATA);
            final int length = Byte.toUnsignedInt(event.get(JAVA_BYTE, VerbsLayouts.CM_EVENT_PRIVATE_DATA_LEN));
            if ((type == CmEvent.REJECTED || type == CmEvent.CONNECT_RESPONSE) && !pointer.equals(MemorySegment.NULL)
                && length > 0) {
                data = PrivateData.unframe(pointer.reinterpret(length).toArray(JAVA_BYTE));
            }
            VerbsLibrary.plain(lib.ackCmEvent, event);
            return new Answer(type, data);
        }
    }

    private void check(final int rc, final String call) {
        if (rc != 0) {
            throw new IllegalStateException(call + " failed with " + Errno.name(NativeCall.errno(capture)));
        }
    }

    /** Destroys every identifier (the listener's pending handshakes see the requests end) and the channel. */
    @Override
    public synchronized void close() {
        for (final MemorySegment id : ids) {
            VerbsLibrary.integer(lib.destroyId, capture, id);
        }
        ids.clear();
        VerbsLibrary.plain(lib.destroyEventChannel, channel);
        arena.close();
    }
}
