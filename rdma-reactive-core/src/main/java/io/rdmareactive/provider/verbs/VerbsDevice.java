package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectionEventHandler;
import io.rdmareactive.spi.DeviceCapability;
import io.rdmareactive.spi.DeviceLimits;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.ProtectionDomain;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * An open RDMA device: the context librdmacm opened for it, a protection domain, a connection-manager event channel
 * with its {@link VerbsEventThread}, the completion channel and queues, and the protection domains allocated from it.
 * It is the SPI face of its parts, each with one role: {@link VerbsRegistrations} registers memory,
 * {@link VerbsConnections} manages connections and the connection manager's events, {@link VerbsQueuePairTable}
 * holds the queue pairs.
 */
final class VerbsDevice implements RdmaDevice {

    /** The device to open where {@link DeviceOptions#deviceName()} names none. */
    static final String DEVICE_PROPERTY = "rdma.verbs.device";

    private static final Logger LOG = Loggers.getLogger(VerbsDevice.class);
    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;
    private static final int O_NONBLOCK = 0x800;
    /**
     * Inline bytes per send the provider promises: verbs reports no device-wide figure (a queue pair learns its own
     * when created), and 64 is within what every current adapter and Soft-RoCE give.
     */
    private static final int INLINE_DATA = 64;

    private final VerbsLibrary lib;
    private final VerbsDeviceProbe.Device info;
    private final VerbsDeviceProbe.Port port;
    private final MemorySegment context;
    private final MemorySegment pd;
    /** The protection domains allocated and not yet deallocated. */
    private final java.util.Set<VerbsProtectionDomain> domains = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final MemorySegment channel;
    private final Arena arena = Arena.ofShared();
    private final DeviceLimits limits;
    /** The device runs 64-bit atomics ({@code atomic_cap} is not {@code IBV_ATOMIC_NONE}). */
    private final boolean atomics;
    private final VerbsRegistrations registrations;
    private final VerbsQueuePairTable queuePairs;
    private final VerbsConnections connections;
    private final VerbsEventThread eventThread;

    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<VerbsCompletionQueue> completionQueues = new ArrayList<>();
    /** The completion channel, or null without one. */
    private final MemorySegment completionChannel;
    /** The live completion queues by the address of their {@code ibv_cq}, for the events of the channel. */
    private final Map<Long, VerbsCompletionQueue> queuesByAddress = new ConcurrentHashMap<>();

    private VerbsDevice(final VerbsLibrary lib, final VerbsDeviceProbe.Device info, final DeviceOptions options) {
        this.lib = lib;
        this.info = info;
        this.port = info.activePort().orElseThrow();
        this.context = info.context();
        final long memlockLimit;
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment protectionDomain = VerbsLibrary.pointer(lib.allocPd, capture, context);
            if (protectionDomain.equals(MemorySegment.NULL)) {
                throw new RdmaException("ibv_alloc_pd on " + info.name() + " failed with "
                    + Errno.name(NativeCall.errno(capture)));
            }
            this.pd = protectionDomain;
            final MemorySegment eventChannel = VerbsLibrary.pointer(lib.createEventChannel, capture);
            if (eventChannel.equals(MemorySegment.NULL)) {
                VerbsLibrary.plain(lib.deallocPd, pd);
                throw new VerbsUnavailableException("rdma_create_event_channel failed with "
                    + Errno.name(NativeCall.errno(capture)) + ": load the rdma_ucm module (modprobe rdma_ucm) and check "
                    + "that /dev/infiniband/rdma_cm exists and is readable");
            }
            this.channel = eventChannel.reinterpret(VerbsLayouts.RDMA_EVENT_CHANNEL.byteSize());
            this.completionChannel = createCompletionChannel(capture);
            memlockLimit = VerbsRegistrations.lockedMemoryLimit(lib, call, capture);
        }
        final int channelFd = channel.get(JAVA_INT, VerbsLayouts.EVENT_CHANNEL_FD);
        final int asyncFd = context.get(JAVA_INT, VerbsLayouts.CONTEXT_ASYNC_FD);
        nonBlocking(channelFd);
        nonBlocking(asyncFd);
        final long registrable = Math.min(options.maxRegisteredBytes(), memlockLimit);
        final int readAtoms = Math.max(1, Math.min(16, Math.min(info.maxReadAtoms(), info.maxInitiatorReadAtoms())));
        this.atomics = info.atomicCapability() != VerbsLayouts.ATOMIC_NONE;
        this.limits = new DeviceLimits(info.maxSge(), INLINE_DATA, info.maxQueuePairDepth(), info.maxCqe(),
            port.maxMessageSize() == 0 ? 1L << 31 : port.maxMessageSize(), registrable, PrivateData.CONNECT_LIMIT,
            PrivateData.REJECT_LIMIT);
        this.registrations = new VerbsRegistrations(this, lib, pd, limits, memlockLimit);
        this.queuePairs = new VerbsQueuePairTable(this, lib, context, pd, info);
        this.connections = new VerbsConnections(this, lib, channel, context, readAtoms, queuePairs);
        final int completionFd = completionChannel == null ? -1
            : completionChannel.get(JAVA_INT, VerbsLayouts.COMP_CHANNEL_FD);
        if (completionFd >= 0) {
            nonBlocking(completionFd);
        }
        this.eventThread = new VerbsEventThread(lib, this, channel, channelFd, context, asyncFd, completionChannel,
            completionFd);
        eventThread.start();
    }

    /**
     * Opens the device the options name, else the one the system property {@value #DEVICE_PROPERTY} names, else the
     * first with an active port. The property is how a process whose devices are opened for it (the Reactor API's
     * runtimes name none) picks one on a machine with several: a process per node in the Soft-RoCE guest's two-node
     * set-up, or on a host with two adapters.
     *
     * @throws VerbsUnavailableException if there is none; the message says why and what to do
     */
    static VerbsDevice open(final DeviceOptions options) {
        final VerbsLibrary lib = VerbsLibrary.get();
        final VerbsDeviceProbe.Device device = VerbsDeviceProbe.probe().choose(options.deviceName()
            .or(() -> Optional.ofNullable(System.getProperty(DEVICE_PROPERTY)).filter(name -> !name.isBlank())));
        return new VerbsDevice(lib, device, options);
    }

    /**
     * The completion channel every completion queue of this device is created on, read by the event thread: a loop
     * that sleeps is woken by its queues' next completion. Without one (creating it failed), loops find completions
     * by polling and sleep no longer than their idle strategy's park.
     */
    private MemorySegment createCompletionChannel(final MemorySegment capture) {
        final MemorySegment created = VerbsLibrary.pointer(lib.createCompChannel, capture, context);
        if (created.equals(MemorySegment.NULL)) {
            onWakeupUnavailable("ibv_create_comp_channel failed with " + Errno.name(NativeCall.errno(capture)));
            return null;
        }
        return created.reinterpret(VerbsLayouts.IBV_COMP_CHANNEL.byteSize());
    }

    /** A completion queue cannot tell a sleeping loop of completions: said once per device. */
    void onWakeupUnavailable(final String why) {
        if (wakeupWarned.compareAndSet(false, true)) {
            LOG.warn("{}: completions cannot wake a sleeping event loop ({}); a loop whose idle strategy parks finds "
                + "them when its park ends", name(), why);
        }
    }

    private final java.util.concurrent.atomic.AtomicBoolean wakeupWarned =
        new java.util.concurrent.atomic.AtomicBoolean();

    /** A completion event of the queue at {@code cq} (the event thread, after acknowledging it). */
    void onCompletionEvent(final long cq) {
        final VerbsCompletionQueue queue = queuesByAddress.get(cq);
        if (queue != null) {
            queue.onCompletionEvent();
        }
    }

    private void nonBlocking(final int fd) {
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final int flags = VerbsLibrary.integer(lib.fcntl, capture, fd, F_GETFL, 0);
            if (flags >= 0) {
                VerbsLibrary.integer(lib.fcntl, capture, fd, F_SETFL, flags | O_NONBLOCK);
            }
        }
    }

    MemorySegment allocate(final long bytes, final long alignment) {
        return arena.allocate(Math.max(bytes, 8), alignment);
    }

    // ------------------------------------------------------------------------------------------------ describing

    @Override
    public String name() {
        return info.name();
    }

    @Override
    public String providerName() {
        return VerbsProvider.NAME;
    }

    @Override
    public Set<DeviceCapability> capabilities() {
        final Set<DeviceCapability> capabilities = EnumSet.of(DeviceCapability.RDMA_READ,
            DeviceCapability.WRITE_WITH_IMMEDIATE, DeviceCapability.SEND_RECEIVE, DeviceCapability.SCATTER_GATHER,
            DeviceCapability.INLINE_DATA, DeviceCapability.CROSS_HOST);
        if (atomics) {
            capabilities.add(DeviceCapability.ATOMICS);
        }
        return capabilities;
    }

    @Override
    public DeviceLimits limits() {
        return limits;
    }

    VerbsDeviceProbe.Port port() {
        return port;
    }

    // ------------------------------------------------------------------------------------------------ memory

    @Override
    public ProtectionDomain allocateProtectionDomain() {
        ensureOpen();
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment allocated = VerbsLibrary.pointer(lib.allocPd, capture, context);
            if (allocated.equals(MemorySegment.NULL)) {
                throw new RdmaException("ibv_alloc_pd on " + name() + " failed with "
                    + Errno.name(NativeCall.errno(capture)) + " (" + domains.size() + " domains allocated by this "
                    + "device handle)");
            }
            final VerbsProtectionDomain domain = new VerbsProtectionDomain(this, allocated);
            domains.add(domain);
            return domain;
        }
    }

    /** Deallocates a domain whose regions and queue pairs are gone (or all of them, when the device closes). */
    void deallocate(final VerbsProtectionDomain domain) {
        domains.remove(domain);
        final int rc = (int) VerbsLibrary.plain(lib.deallocPd, domain.pd());
        if (rc != 0) {
            LOG.warn("ibv_dealloc_pd of {} failed with {}", domain, Errno.name(rc));
        }
    }

    @Override
    public MemoryRegion allocateRegion(final long length, final int access) {
        return registrations.allocate(null, length, access);
    }

    @Override
    public MemoryRegion register(final OffHeapMemory memory, final int access) {
        return registrations.register(null, memory, access, false);
    }

    @Override
    public long registeredBytes() {
        return registrations.registeredBytes();
    }

    VerbsRegistrations registrations() {
        return registrations;
    }

    // ------------------------------------------------------------------------------------------------ completion

    @Override
    public CompletionQueue createCompletionQueue(final int capacity) {
        ensureOpen();
        if (capacity <= 0 || capacity > info.maxCqe()) {
            throw new IllegalArgumentException("a completion queue on " + name() + " holds 1 to " + info.maxCqe()
                + " completions: " + capacity);
        }
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment cq = VerbsLibrary.pointer(lib.createCq, capture, context, capacity,
                MemorySegment.NULL, completionChannel == null ? MemorySegment.NULL : completionChannel, 0);
            if (cq.equals(MemorySegment.NULL)) {
                throw new RdmaException("ibv_create_cq(" + capacity + ") on " + name() + " failed with "
                    + Errno.name(NativeCall.errno(capture)));
            }
            final VerbsCompletionQueue queue = new VerbsCompletionQueue(this,
                cq.reinterpret(VerbsLayouts.IBV_CQ.byteSize()),
                allocate(VerbsCompletionQueue.POLL_BATCH * VerbsLayouts.IBV_WC.byteSize(), 64),
                completionChannel != null);
            synchronized (completionQueues) {
                completionQueues.add(queue);
            }
            queuesByAddress.put(cq.address(), queue);
            return queue;
        }
    }

    void destroyCompletionQueue(final VerbsCompletionQueue queue) {
        synchronized (completionQueues) {
            completionQueues.remove(queue);
        }
        queuesByAddress.remove(queue.cq().address(), queue);
        // waits for the event thread to acknowledge an event of this queue it has read, which it does at once
        final int rc = (int) VerbsLibrary.plain(lib.destroyCq, queue.cq());
        if (rc != 0) {
            LOG.warn("ibv_destroy_cq on {} failed with {} (a queue pair still uses it?)", name(), Errno.name(rc));
        }
    }

    // ------------------------------------------------------------------------------------------------ connections

    @Override
    public Listener listen(final String address) {
        return connections.listen(address);
    }

    @Override
    public QueuePair connect(final String address, final QueuePairOptions options,
                             final java.util.function.Function<? super QueuePair, byte[]> request,
                             final Duration timeout) {
        return connections.connect(address, options, request, timeout);
    }

    VerbsConnections connections() {
        return connections;
    }

    VerbsQueuePairTable queuePairs() {
        return queuePairs;
    }

    /** Destroys a closed queue pair and its connection identifier, then the deregistrations that waited for it. */
    void destroyQueuePair(final VerbsQueuePair queuePair) {
        queuePairs.remove(queuePair);
        VerbsLibrary.plain(lib.destroyQp, queuePair.cmId());
        connections.destroyId(queuePair.cmId());
        registrations.retryDeregistrations();
        if (queuePair.domain() != null) {
            queuePair.domain().release();
        }
    }

    // ------------------------------------------------------------------------------------------------ events

    @Override
    public int pollEvents(final ConnectionEventHandler handler, final int limit) {
        return connections.pollEvents(handler, limit);
    }

    /** On the event thread, after each wake-up. */
    void onEventThreadTick() {
        final long now = System.nanoTime();
        for (final VerbsQueuePair queuePair : queuePairs.all()) {
            queuePair.onTick(now);
        }
    }

    void onEventThreadFailure(final Throwable failure) {
        if (!closed.get()) {
            LOG.error("the connection-manager thread of {} failed; connection events of this device are no longer "
                + "seen", name(), failure);
        }
    }

    // ------------------------------------------------------------------------------------------------ closing

    void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the verbs device " + name() + " is closed");
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        connections.closeListeners();
        queuePairs.closeAll();
        final List<VerbsCompletionQueue> queues;
        synchronized (completionQueues) {
            queues = List.copyOf(completionQueues);
        }
        queues.forEach(VerbsCompletionQueue::close);
        registrations.deregisterAll();
        for (final VerbsProtectionDomain domain : List.copyOf(domains)) {
            domain.deallocate();
        }
        VerbsLibrary.plain(lib.deallocPd, pd);
        eventThread.shutdown();
        VerbsLibrary.plain(lib.destroyEventChannel, channel);
        if (completionChannel != null) {
            final int rc = (int) VerbsLibrary.plain(lib.destroyCompChannel, completionChannel);
            if (rc != 0) {
                LOG.warn("ibv_destroy_comp_channel on {} failed with {}", name(), Errno.name(rc));
            }
        }
        arena.close();
    }

    @Override
    public String toString() {
        return "VerbsDevice{" + name() + ", " + port.describe() + '}';
    }
}
