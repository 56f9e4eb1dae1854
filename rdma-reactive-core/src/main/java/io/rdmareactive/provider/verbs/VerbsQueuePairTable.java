package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.rdmareactive.spi.ProtectionDomain;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The queue-pair table of a {@link VerbsDevice}: creates each queue pair ({@code rdma_create_qp}) in a slot, which the
 * work-request ids carry so that a completion finds its queue pair without a lookup by number, and keeps the queue
 * pairs by their connection identifier for the connection manager's events. The slots are read without a lock.
 */
final class VerbsQueuePairTable {

    private static final int IBV_QPT_RC = 2;
    private static final int SLOTS = 4096;

    private final VerbsDevice device;
    private final VerbsLibrary lib;
    private final MemorySegment context;
    /** The device's own protection domain. */
    private final MemorySegment pd;
    private final VerbsDeviceProbe.Device info;
    private final AtomicReferenceArray<VerbsQueuePair> slots = new AtomicReferenceArray<>(SLOTS);
    private int nextSlot;
    private final Map<Long, VerbsQueuePair> queuePairsByCmId = new ConcurrentHashMap<>();

    VerbsQueuePairTable(final VerbsDevice device, final VerbsLibrary lib, final MemorySegment context,
                        final MemorySegment pd, final VerbsDeviceProbe.Device info) {
        this.device = device;
        this.lib = lib;
        this.context = context;
        this.pd = pd;
        this.info = info;
    }

    /** @return the verbs domain the options name (null: the device's own) */
    private VerbsProtectionDomain domainOf(final QueuePairOptions options) {
        final ProtectionDomain domain = options.protectionDomain();
        if (domain == null) {
            return null;
        }
        if (!(domain instanceof VerbsProtectionDomain verbs) || verbs.device() != device) {
            throw new IllegalArgumentException("the queue pair's protection domain is not one of " + device.name()
                + ": allocate it with this device's allocateProtectionDomain()");
        }
        return verbs;
    }

    /**
     * Creates the queue pair of a connection identifier ({@code rdma_create_qp}) and enters it in the table.
     *
     * @param peer the peer, for messages
     */
    VerbsQueuePair create(final MemorySegment id, final QueuePairOptions options, final String peer) {
        if (!(options.sendQueue() instanceof VerbsCompletionQueue send) || !(options.receiveQueue()
            instanceof VerbsCompletionQueue receive)) {
            throw new IllegalArgumentException("a verbs queue pair needs completion queues of the verbs provider");
        }
        final long idContext = id.get(ADDRESS, VerbsLayouts.CM_ID_VERBS).address();
        if (idContext != context.address()) {
            throw new RdmaException("the connection to " + peer + " runs through another RDMA device context (0x"
                + Long.toHexString(idContext) + ") than " + device.name() + "'s (0x"
                + Long.toHexString(context.address())
                + "); open the device that serves that address (DeviceOptions.deviceName)");
        }
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment attr = call.allocate(VerbsLayouts.IBV_QP_INIT_ATTR);
            attr.fill((byte) 0);
            attr.set(ADDRESS, VerbsLayouts.QP_INIT_ATTR_SEND_CQ, send.cq());
            attr.set(ADDRESS, VerbsLayouts.QP_INIT_ATTR_RECV_CQ, receive.cq());
            attr.set(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_SEND_WR, options.sendDepth());
            attr.set(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_RECV_WR, options.receiveDepth());
            attr.set(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_SEND_SGE, options.maxSendSge());
            attr.set(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_RECV_SGE, options.maxReceiveSge());
            attr.set(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_INLINE_DATA, options.maxInlineData());
            attr.set(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_QP_TYPE, IBV_QPT_RC);
            attr.set(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_SQ_SIG_ALL, options.signalAll() ? 1 : 0);
            final VerbsProtectionDomain domain = domainOf(options);
            if (VerbsLibrary.integer(lib.createQp, capture, id, domain == null ? pd : domain.pd(), attr) != 0) {
                throw new RdmaException("creating a queue pair on " + device.name() + " failed with "
                    + Errno.name(NativeCall.errno(capture)) + " for " + options + "; the device allows depth "
                    + info.maxQueuePairDepth() + " and " + info.maxSge() + " gather/scatter entries");
            }
            final MemorySegment qp = id.get(ADDRESS, VerbsLayouts.CM_ID_QP).reinterpret(VerbsLayouts.IBV_QP.byteSize());
            final int slot = claimSlot();
            final VerbsQueuePair queuePair = new VerbsQueuePair(device, id, qp, slot,
                attr.get(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_SEND_WR),
                attr.get(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_RECV_WR),
                Math.max(options.maxSendSge(), attr.get(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_SEND_SGE)),
                Math.max(options.maxReceiveSge(), attr.get(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_RECV_SGE)),
                attr.get(JAVA_INT, VerbsLayouts.QP_INIT_ATTR_MAX_INLINE_DATA), peer, receive);
            if (domain != null) {
                domain.retain();
                queuePair.domain(domain);
            }
            slots.set(slot, queuePair);
            queuePairsByCmId.put(id.address(), queuePair);
            return queuePair;
        }
    }

    private synchronized int claimSlot() {
        for (int i = 0; i < SLOTS; i++) {
            final int candidate = (nextSlot + i) % SLOTS;
            if (slots.get(candidate) == null) {
                nextSlot = candidate + 1;
                return candidate;
            }
        }
        throw new RdmaException("device " + device.name() + " has " + SLOTS + " queue pairs open, the most one device "
            + "handle serves; close some or open another device handle");
    }

    /** @return the queue pair in a slot (the work-request ids name it), or null; read without a lock */
    VerbsQueuePair inSlot(final int slot) {
        return slot < SLOTS ? slots.get(slot) : null;
    }

    /** @return the queue pair of a connection identifier (the address of its {@code rdma_cm_id}), or null */
    VerbsQueuePair byCmId(final long cmId) {
        return queuePairsByCmId.get(cmId);
    }

    /** @return the queue pairs with a connection identifier, a live view */
    Collection<VerbsQueuePair> all() {
        return queuePairsByCmId.values();
    }

    /** Takes a queue pair that is being destroyed out of the table. */
    void remove(final VerbsQueuePair queuePair) {
        slots.compareAndSet(queuePair.slot(), queuePair, null);
        queuePairsByCmId.remove(queuePair.cmId().address());
    }

    /** The device closes: closes every queue pair in the table. */
    void closeAll() {
        for (int i = 0; i < SLOTS; i++) {
            final VerbsQueuePair queuePair = slots.get(i);
            if (queuePair != null) {
                queuePair.close();
            }
        }
    }
}
