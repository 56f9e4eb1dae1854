package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.ConnectionEventHandler;
import io.rdmareactive.spi.ConnectionRejectedException;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * The connection management of a {@link VerbsDevice}: its listeners, connection setup through librdmacm (resolve
 * address and route, connect, accept, reject) on the calling thread, which waits for the event thread to hand it the
 * connection manager's answers, the connection manager's events, and the connection events it reports to
 * {@link io.rdmareactive.spi.RdmaDevice#pollEvents}.
 */
final class VerbsConnections {

    /** The device's logger: the provider's messages keep the one name the logging guide gives. */
    private static final Logger LOG = Loggers.getLogger(VerbsDevice.class);
    private static final int RDMA_PS_TCP = 0x106;
    /** Connect requests a listener's backlog holds ({@code rdma_listen}). */
    private static final int LISTEN_BACKLOG = 128;
    /** Transport retries of a connection ({@code rdma_conn_param.retry_count}): the most, 7. */
    private static final int RETRY_COUNT = 7;
    private static final Duration ACCEPT_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(5);

    private final VerbsDevice device;
    private final VerbsLibrary lib;
    /** The connection-manager event channel every identifier is created on. */
    private final MemorySegment channel;
    private final MemorySegment context;
    /** RDMA READs and atomics in flight each way, offered in every connect and accept. */
    private final int readAtoms;
    private final VerbsQueuePairTable queuePairs;
    private final Map<Long, VerbsListener> listeners = new ConcurrentHashMap<>();
    private final Map<Long, BlockingQueue<CmEvent>> waiters = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<ConnectionEvent> events = new ConcurrentLinkedQueue<>();

    VerbsConnections(final VerbsDevice device, final VerbsLibrary lib, final MemorySegment channel,
                     final MemorySegment context, final int readAtoms, final VerbsQueuePairTable queuePairs) {
        this.device = device;
        this.lib = lib;
        this.channel = channel;
        this.context = context;
        this.readAtoms = readAtoms;
        this.queuePairs = queuePairs;
    }

    /** Listens at an address ({@link io.rdmareactive.spi.RdmaDevice#listen}). */
    Listener listen(final String address) {
        device.ensureOpen();
        final VerbsAddress local = VerbsAddress.parse(address);
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment id = createId(call, capture);
            int rc = VerbsLibrary.integer(lib.bindAddr, capture, id, local.toSockaddr(call));
            if (rc != 0) {
                final int errno = NativeCall.errno(capture);
                destroyId(id);
                throw new RdmaException("cannot listen at " + address + ": rdma_bind_addr failed with "
                    + Errno.name(errno) + (errno == Errno.EADDRINUSE ? " (the port is taken)"
                    : errno == Errno.EADDRNOTAVAIL || errno == Errno.ENODEV
                    ? " (no RDMA device serves that IP address; use the address of the interface under "
                    + device.name() + ")" : ""));
            }
            rc = VerbsLibrary.integer(lib.listen, capture, id, LISTEN_BACKLOG);
            if (rc != 0) {
                final int errno = NativeCall.errno(capture);
                destroyId(id);
                throw new RdmaException("cannot listen at " + address + ": rdma_listen failed with "
                    + Errno.name(errno));
            }
            final int boundPort = Short.toUnsignedInt(Short.reverseBytes((short) VerbsLibrary.plain(lib.getSrcPort, id)));
            final VerbsListener listener = new VerbsListener(device, id, local.host() + ":" + boundPort);
            listeners.put(id.address(), listener);
            return listener;
        }
    }

    void destroyListener(final VerbsListener listener) {
        listeners.remove(listener.cmId().address());
        destroyId(listener.cmId());
    }

    /** Connects, on the calling thread ({@link io.rdmareactive.spi.RdmaDevice#connect}). */
    QueuePair connect(final String address, final QueuePairOptions options,
                             final java.util.function.Function<? super QueuePair, byte[]> request,
                             final Duration timeout) {
        device.ensureOpen();
        final VerbsAddress target;
        try {
            target = VerbsAddress.parse(address);
        } catch (final IllegalArgumentException ex) {
            throw new RdmaException(ex.getMessage(), ex);
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment id = createId(call, capture);
            final BlockingQueue<CmEvent> answers = new LinkedBlockingQueue<>();
            waiters.put(id.address(), answers);
            VerbsQueuePair queuePair = null;
            boolean connected = false;
            try {
                final int resolveMillis = millis(deadline, RESOLVE_TIMEOUT);
                check(VerbsLibrary.integer(lib.resolveAddr, capture, id, MemorySegment.NULL, target.toSockaddr(call),
                    resolveMillis), capture, "rdma_resolve_addr", address);
                CmEvent answer = await(answers, deadline, address, "address resolution");
                if (answer.type() != CmEvent.ADDR_RESOLVED) {
                    throw new RdmaException("cannot connect to " + address + ": no RDMA device here reaches it ("
                        + answer + "); the address must be the IP address of the peer's RDMA interface (its RoCE "
                        + "network interface or IPoIB interface), reachable from " + device.name());
                }
                final long verbs = id.get(ADDRESS, VerbsLayouts.CM_ID_VERBS).address();
                if (verbs != context.address()) {
                    throw new RdmaException("cannot connect to " + address + " from " + device.name()
                        + ": the route to it leaves through another RDMA device; open that device "
                        + "(DeviceOptions.deviceName)");
                }
                check(VerbsLibrary.integer(lib.resolveRoute, capture, id, millis(deadline, RESOLVE_TIMEOUT)), capture,
                    "rdma_resolve_route", address);
                answer = await(answers, deadline, address, "route resolution");
                if (answer.type() != CmEvent.ROUTE_RESOLVED) {
                    throw new RdmaException("cannot connect to " + address + ": no route to it (" + answer + ")");
                }
                queuePair = queuePairs.create(id, options, target.toString());
                queuePair.localGid(gid(id, VerbsLayouts.CM_ID_SGID));
                options.prepare(queuePair);
                final byte[] framed = PrivateData.frame(request.apply(queuePair), PrivateData.CONNECT_LIMIT,
                    "a connect request");
                check(VerbsLibrary.integer(lib.connect, capture, id, connectionParameters(call, framed,
                    options.rnrRetries())), capture, "rdma_connect", address);
                answer = await(answers, deadline, address, "the listener's answer");
                switch (answer.type()) {
                    case CmEvent.ESTABLISHED -> {
                        queuePair.endpoints(gid(id, VerbsLayouts.CM_ID_SGID), gid(id, VerbsLayouts.CM_ID_DGID),
                            answer.peerQpNumber());
                        queuePair.established(PrivateData.unframe(answer.privateData()));
                        connected = true;
                        return queuePair;
                    }
                    case CmEvent.REJECTED -> {
                        if (answer.status() == CmEvent.REJECT_CONSUMER_DEFINED) {
                            throw new ConnectionRejectedException("the listener at " + address + " rejected the "
                                + "connection", PrivateData.unframe(answer.privateData()));
                        }
                        throw new RdmaException("nobody listens at " + address + " (the peer's connection manager "
                            + "rejected the request, reason " + answer.status() + ")");
                    }
                    default -> throw new RdmaException("connecting to " + address + " failed: " + answer
                        + "; the peer did not answer (is it reachable, and is its port up?)");
                }
            } finally {
                waiters.remove(id.address());
                if (!connected) {
                    if (queuePair != null) {
                        queuePair.close();
                    } else {
                        destroyId(id);
                    }
                }
            }
        }
    }

    private static int millis(final long deadline, final Duration cap) {
        final long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        return (int) Math.max(1, Math.min(left, cap.toMillis()));
    }

    private void check(final int rc, final MemorySegment capture, final String call, final String address) {
        if (rc != 0) {
            throw new RdmaException("connecting to " + address + " failed: " + call + " returned "
                + Errno.name(NativeCall.errno(capture)));
        }
    }

    private static CmEvent await(final BlockingQueue<CmEvent> answers, final long deadline, final String address,
                                 final String what) {
        try {
            final CmEvent event = answers.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (event == null) {
                throw new RdmaException("connecting to " + address + " timed out waiting for " + what);
            }
            return event;
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted while connecting to " + address, ex);
        }
    }

    private MemorySegment connectionParameters(final Arena call, final byte[] framed, final int rnrRetries) {
        final MemorySegment data = call.allocate(Math.max(1, framed.length));
        MemorySegment.copy(framed, 0, data, JAVA_BYTE, 0, framed.length);
        final MemorySegment param = call.allocate(VerbsLayouts.RDMA_CONN_PARAM);
        param.fill((byte) 0);
        param.set(ADDRESS, VerbsLayouts.CONN_PARAM_PRIVATE_DATA, data);
        param.set(JAVA_BYTE, VerbsLayouts.CONN_PARAM_PRIVATE_DATA_LEN, (byte) framed.length);
        param.set(JAVA_BYTE, VerbsLayouts.CONN_PARAM_RESPONDER_RESOURCES, (byte) readAtoms);
        param.set(JAVA_BYTE, VerbsLayouts.CONN_PARAM_INITIATOR_DEPTH, (byte) readAtoms);
        param.set(JAVA_BYTE, VerbsLayouts.CONN_PARAM_RETRY_COUNT, (byte) RETRY_COUNT);
        param.set(JAVA_BYTE, VerbsLayouts.CONN_PARAM_RNR_RETRY_COUNT, (byte) rnrRetries);
        return param;
    }

    /** @return a GID of a connection identifier's route ({@link VerbsLayouts#CM_ID_SGID} or {@code CM_ID_DGID}) */
    static byte[] gid(final MemorySegment id, final long offset) {
        return id.asSlice(offset, VerbsLayouts.GID_LENGTH).toArray(JAVA_BYTE);
    }

    /** Accepts a connect request, on the calling thread ({@link VerbsConnectRequest#accept}). */
    QueuePair accept(final long idAddress, final QueuePairOptions options,
                     final java.util.function.Function<? super QueuePair, byte[]> answerOf, final byte[] peerData,
                     final String peer, final int peerQpNumber) {
        device.ensureOpen();
        final MemorySegment id = MemorySegment.ofAddress(idAddress).reinterpret(VerbsLayouts.RDMA_CM_ID.byteSize());
        final BlockingQueue<CmEvent> answers = new LinkedBlockingQueue<>();
        waiters.put(idAddress, answers);
        VerbsQueuePair queuePair = null;
        boolean connected = false;
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            queuePair = queuePairs.create(id, options, peer);
            queuePair.endpoints(gid(id, VerbsLayouts.CM_ID_SGID), gid(id, VerbsLayouts.CM_ID_DGID), peerQpNumber);
            options.prepare(queuePair);
            final byte[] framed = PrivateData.frame(answerOf.apply(queuePair), PrivateData.CONNECT_LIMIT, "an accept");
            if (VerbsLibrary.integer(lib.accept, capture, id, connectionParameters(call, framed,
                options.rnrRetries())) != 0) {
                throw new RdmaException("accepting the connection from " + peer + " failed: rdma_accept returned "
                    + Errno.name(NativeCall.errno(capture)));
            }
            final CmEvent answer = await(answers, System.nanoTime() + ACCEPT_TIMEOUT.toNanos(), peer,
                "the connection to be established");
            if (answer.type() != CmEvent.ESTABLISHED) {
                throw new RdmaException("the peer " + peer + " went away before the connection was established ("
                    + answer + ")");
            }
            queuePair.established(peerData);
            connected = true;
            return queuePair;
        } finally {
            waiters.remove(idAddress);
            if (!connected) {
                if (queuePair != null) {
                    queuePair.close();
                } else {
                    destroyId(id);
                }
            }
        }
    }

    /** Rejects a connect request with the framed private data, and destroys its identifier. */
    void reject(final long idAddress, final byte[] framed) {
        final MemorySegment id = MemorySegment.ofAddress(idAddress).reinterpret(VerbsLayouts.RDMA_CM_ID.byteSize());
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment data = call.allocate(Math.max(1, framed.length));
            MemorySegment.copy(framed, 0, data, JAVA_BYTE, 0, framed.length);
            if (VerbsLibrary.integer(lib.reject, capture, id, data, (byte) framed.length) != 0
                && LOG.isDebugEnabled()) {
                LOG.debug("rdma_reject failed with {}", Errno.name(NativeCall.errno(capture)));
            }
        }
        destroyId(id);
    }

    private MemorySegment createId(final Arena call, final MemorySegment capture) {
        final MemorySegment slot = call.allocate(ADDRESS);
        if (VerbsLibrary.integer(lib.createId, capture, channel, slot, MemorySegment.NULL, RDMA_PS_TCP) != 0) {
            throw new RdmaException("rdma_create_id failed with " + Errno.name(NativeCall.errno(capture)));
        }
        return slot.get(ADDRESS, 0).reinterpret(VerbsLayouts.RDMA_CM_ID.byteSize());
    }

    void destroyId(final MemorySegment id) {
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            if (VerbsLibrary.integer(lib.destroyId, capture, id) != 0 && LOG.isDebugEnabled()) {
                LOG.debug("rdma_destroy_id failed with {}", Errno.name(NativeCall.errno(capture)));
            }
        }
    }

    /** {@code rdma_disconnect} of a queue pair's connection. */
    void disconnect(final VerbsQueuePair queuePair) {
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            if (VerbsLibrary.integer(lib.disconnect, capture, queuePair.cmId()) != 0 && LOG.isDebugEnabled()) {
                LOG.debug("rdma_disconnect failed with {}", Errno.name(NativeCall.errno(capture)));
            }
        }
    }

    /** Queues a connection event for {@link #pollEvents}; any thread. */
    void report(final ConnectionEvent event) {
        events.add(event);
    }

    /** Hands the reported events to the handler ({@link io.rdmareactive.spi.RdmaDevice#pollEvents}). */
    int pollEvents(final ConnectionEventHandler handler, final int limit) {
        int handled = 0;
        ConnectionEvent event;
        while (handled < limit && (event = events.poll()) != null) {
            handler.onEvent(event);
            handled++;
        }
        return handled;
    }

    /** On the event thread. */
    void onConnectionEvent(final CmEvent event) {
        if (event.type() == CmEvent.CONNECT_REQUEST) {
            final VerbsListener listener = listeners.get(event.listenId());
            if (listener != null) {
                listener.onConnectRequest(event);
            } else {
                reject(event.id(), PrivateData.frame(new byte[0], PrivateData.REJECT_LIMIT, "a reject"));
            }
            return;
        }
        final VerbsQueuePair queuePair = queuePairs.byCmId(event.id());
        if (queuePair != null && (event.type() == CmEvent.DISCONNECTED || event.type() == CmEvent.DEVICE_REMOVAL)) {
            if (event.type() == CmEvent.DISCONNECTED) {
                queuePair.onDisconnected();
            } else {
                queuePair.enterError("the RDMA device " + device.name() + " was removed",
                    ConnectionEvent.Type.PEER_LOST);
            }
        }
        final BlockingQueue<CmEvent> waiter = waiters.get(event.id());
        if (waiter != null) {
            waiter.add(event);
        }
    }

    /** The device closes: closes every listener. */
    void closeListeners() {
        for (final VerbsListener listener : List.copyOf(listeners.values())) {
            listener.close();
        }
    }
}
