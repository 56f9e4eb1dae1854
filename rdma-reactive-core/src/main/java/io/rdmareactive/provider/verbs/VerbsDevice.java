package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.ring.PageSize;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.ConnectionEventHandler;
import io.rdmareactive.spi.ConnectionRejectedException;
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
import io.rdmareactive.spi.RegistrationLimitException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.agrona.collections.Int2ObjectHashMap;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * An open RDMA device: the context librdmacm opened for it, a protection domain, a connection-manager event channel
 * with its {@link VerbsEventThread}, and everything created from it. Connection setup (resolve address and route,
 * connect, accept, reject) runs on the calling thread, which waits for the event thread to hand it the connection
 * manager's answers.
 */
final class VerbsDevice implements RdmaDevice {

    /** The device to open where {@link DeviceOptions#deviceName()} names none. */
    static final String DEVICE_PROPERTY = "rdma.verbs.device";

    private static final Logger LOG = Loggers.getLogger(VerbsDevice.class);
    private static final int RDMA_PS_TCP = 0x106;
    private static final int IBV_QPT_RC = 2;
    private static final int RLIMIT_MEMLOCK = 8;
    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;
    private static final int O_NONBLOCK = 0x800;
    private static final int SLOTS = 4096;
    /**
     * Inline bytes per send the provider promises: verbs reports no device-wide figure (a queue pair learns its own
     * when created), and 64 is within what every current adapter and Soft-RoCE give.
     */
    private static final int INLINE_DATA = 64;
    private static final Duration ACCEPT_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(5);

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
    private final long memlockLimit;
    private final int readAtoms;
    /** The device runs 64-bit atomics ({@code atomic_cap} is not {@code IBV_ATOMIC_NONE}). */
    private final boolean atomics;
    private final VerbsEventThread eventThread;

    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong registeredBytes = new AtomicLong();
    private final Object registrationLock = new Object();
    private final List<VerbsMemoryRegion> regions = new ArrayList<>();
    private volatile Int2ObjectHashMap<VerbsMemoryRegion> regionsByLkey = new Int2ObjectHashMap<>();
    private final List<PendingDeregistration> pending = new ArrayList<>();
    private volatile int pendingCount;
    private final List<VerbsCompletionQueue> completionQueues = new ArrayList<>();
    private final AtomicReferenceArray<VerbsQueuePair> slots = new AtomicReferenceArray<>(SLOTS);
    private int nextSlot;
    private final Map<Long, VerbsListener> listeners = new ConcurrentHashMap<>();
    private final Map<Long, BlockingQueue<CmEvent>> waiters = new ConcurrentHashMap<>();
    private final Map<Long, VerbsQueuePair> queuePairsByCmId = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<ConnectionEvent> events = new ConcurrentLinkedQueue<>();
    /** The completion channel, or null without one. */
    private final MemorySegment completionChannel;
    /** The live completion queues by the address of their {@code ibv_cq}, for the events of the channel. */
    private final Map<Long, VerbsCompletionQueue> queuesByAddress = new ConcurrentHashMap<>();

    private VerbsDevice(final VerbsLibrary lib, final VerbsDeviceProbe.Device info, final DeviceOptions options) {
        this.lib = lib;
        this.info = info;
        this.port = info.activePort().orElseThrow();
        this.context = info.context();
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
            this.memlockLimit = lockedMemoryLimit(call, capture);
        }
        final int channelFd = channel.get(JAVA_INT, 0);
        final int asyncFd = context.get(JAVA_INT, VerbsLayouts.CONTEXT_ASYNC_FD);
        nonBlocking(channelFd);
        nonBlocking(asyncFd);
        final long registrable = Math.min(options.maxRegisteredBytes(), memlockLimit);
        this.readAtoms = Math.max(1, Math.min(16, Math.min(info.maxReadAtoms(), info.maxInitiatorReadAtoms())));
        this.atomics = info.atomicCapability() != VerbsLayouts.ATOMIC_NONE;
        this.limits = new DeviceLimits(info.maxSge(), INLINE_DATA, info.maxQueuePairDepth(), info.maxCqe(),
            port.maxMessageSize() == 0 ? 1L << 31 : port.maxMessageSize(), registrable, PrivateData.CONNECT_LIMIT,
            PrivateData.REJECT_LIMIT);
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

    private long lockedMemoryLimit(final Arena call, final MemorySegment capture) {
        if (hasIpcLockCapability()) {
            return DeviceOptions.UNLIMITED;
        }
        final MemorySegment limit = call.allocate(VerbsLayouts.RLIMIT);
        if (VerbsLibrary.integer(lib.getrlimit, capture, RLIMIT_MEMLOCK, limit) != 0) {
            return DeviceOptions.UNLIMITED;
        }
        final long current = limit.get(JAVA_LONG, 0);
        return current < 0 ? DeviceOptions.UNLIMITED : current;
    }

    /** @return true if this process may lock memory beyond RLIMIT_MEMLOCK (CAP_IPC_LOCK, as root usually has) */
    private static boolean hasIpcLockCapability() {
        try {
            for (final String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    final long caps = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                    return (caps & (1L << 14)) != 0;
                }
            }
        } catch (final java.io.IOException | RuntimeException ex) {
            return false;
        }
        return false;
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

    /** @return the verbs domain the options name (null: the device's own) */
    private VerbsProtectionDomain domainOf(final QueuePairOptions options) {
        final ProtectionDomain domain = options.protectionDomain();
        if (domain == null) {
            return null;
        }
        if (!(domain instanceof VerbsProtectionDomain verbs) || verbs.device() != this) {
            throw new IllegalArgumentException("the queue pair's protection domain is not one of " + name()
                + ": allocate it with this device's allocateProtectionDomain()");
        }
        return verbs;
    }

    @Override
    public MemoryRegion allocateRegion(final long length, final int access) {
        return allocateRegion(null, length, access);
    }

    MemoryRegion allocateRegion(final VerbsProtectionDomain domain, final long length, final int access) {
        final int page = PageSize.get();
        if (length <= 0 || length % page != 0) {
            throw new IllegalArgumentException("a region's length must be a positive multiple of the page size ("
                + page + "): " + length);
        }
        checkLimit(length);
        final OffHeapMemory memory = OffHeapMemory.allocate(length);
        try {
            return register(domain, memory, access, true);
        } catch (final RuntimeException ex) {
            memory.close();
            throw ex;
        }
    }

    @Override
    public MemoryRegion register(final OffHeapMemory memory, final int access) {
        return register(null, memory, access, false);
    }

    MemoryRegion register(final VerbsProtectionDomain domain, final OffHeapMemory memory, final int access) {
        return register(domain, memory, access, false);
    }

    private MemoryRegion register(final VerbsProtectionDomain domain, final OffHeapMemory memory, final int access,
                                  final boolean owned) {
        Access.validate(access);
        ensureOpen();
        final long length = memory.length();
        checkLimit(length);
        final OffHeapMemory.Lease lease = memory.acquire();
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment mr = VerbsLibrary.pointer(lib.regMr, capture, domain == null ? pd : domain.pd(),
                MemorySegment.ofAddress(memory.address()), length, access);
            if (mr.equals(MemorySegment.NULL)) {
                final int errno = NativeCall.errno(capture);
                lease.close();
                if (errno == Errno.ENOMEM || errno == Errno.EPERM || errno == Errno.EAGAIN) {
                    throw new RegistrationLimitException("registering " + length + " bytes on " + name()
                        + " failed with " + Errno.name(errno) + ": the locked-memory limit is too low ("
                        + describeMemlock() + "; " + registeredBytes.get() + " bytes registered by this device); "
                        + "raise it: 'ulimit -l unlimited' in the shell, LimitMEMLOCK=infinity for a systemd service, "
                        + "'--ulimit memlock=-1' for a container");
                }
                throw new RdmaException("registering " + length + " bytes at 0x" + Long.toHexString(memory.address())
                    + " on " + name() + " failed with " + Errno.name(errno));
            }
            final VerbsMemoryRegion region = new VerbsMemoryRegion(this, lease, owned ? memory : null,
                mr.reinterpret(VerbsLayouts.IBV_MR.byteSize()), access, domain);
            if (domain != null) {
                domain.retain();
            }
            synchronized (registrationLock) {
                regions.add(region);
                final Int2ObjectHashMap<VerbsMemoryRegion> byLkey = new Int2ObjectHashMap<>(regionsByLkey);
                byLkey.put(region.lkey(), region);
                regionsByLkey = byLkey;
            }
            registeredBytes.addAndGet(length);
            return region;
        }
    }

    private void checkLimit(final long length) {
        if (registeredBytes.get() + length > limits.maxRegisteredBytes()) {
            throw new RegistrationLimitException("registering " + length + " more bytes on " + name() + " would pass "
                + "its limit of " + limits.maxRegisteredBytes() + " bytes (" + registeredBytes.get() + " registered; "
                + (limits.maxRegisteredBytes() == memlockLimit ? describeMemlock() + "; raise it with 'ulimit -l "
                + "unlimited', LimitMEMLOCK=infinity for a systemd service, '--ulimit memlock=-1' for a container"
                : "the limit set in DeviceOptions.maxRegisteredBytes") + ")");
        }
    }

    private String describeMemlock() {
        return memlockLimit == DeviceOptions.UNLIMITED ? "locked memory is unlimited for this process"
            : "ulimit -l is " + memlockLimit / 1024 + " KiB";
    }

    @Override
    public long registeredBytes() {
        return registeredBytes.get();
    }

    /** On the posting thread: a gather/scatter entry names {@code lkey}. */
    void noteUse(final int lkey, final VerbsQueuePair queuePair) {
        final VerbsMemoryRegion region = regionsByLkey.get(lkey);
        if (region != null) {
            region.usedBy(queuePair);
        }
    }

    void requestDeregistration(final VerbsMemoryRegion region) {
        synchronized (registrationLock) {
            final List<VerbsQueuePair> users = region.users();
            final PendingDeregistration waiting = new PendingDeregistration(region, users.toArray(VerbsQueuePair[]::new));
            if (waiting.isDone()) {
                deregister(region);
            } else {
                pending.add(waiting);
                pendingCount = pending.size();
            }
        }
    }

    boolean hasPendingDeregistrations() {
        return pendingCount > 0;
    }

    void retryDeregistrations() {
        synchronized (registrationLock) {
            pending.removeIf(waiting -> {
                if (waiting.isDone()) {
                    deregister(waiting.region);
                    return true;
                }
                return false;
            });
            pendingCount = pending.size();
        }
    }

    /** Holds {@code registrationLock}. */
    private void deregister(final VerbsMemoryRegion region) {
        final int rc = (int) VerbsLibrary.plain(lib.deregMr, region.mr());
        if (rc != 0) {
            LOG.warn("ibv_dereg_mr of {} failed with {}", region, Errno.name(rc));
        }
        regions.remove(region);
        final Int2ObjectHashMap<VerbsMemoryRegion> byLkey = new Int2ObjectHashMap<>(regionsByLkey);
        byLkey.remove(region.lkey());
        regionsByLkey = byLkey;
        registeredBytes.addAndGet(-region.length());
        region.deregistered();
        if (region.domain() != null) {
            region.domain().release();
        }
    }

    /** A region waiting for the work its queue pairs had posted when it was closed. */
    private static final class PendingDeregistration {

        final VerbsMemoryRegion region;
        final VerbsQueuePair[] queuePairs;
        final long[] sends;
        final long[] receives;

        PendingDeregistration(final VerbsMemoryRegion region, final VerbsQueuePair[] queuePairs) {
            this.region = region;
            this.queuePairs = queuePairs;
            this.sends = new long[queuePairs.length];
            this.receives = new long[queuePairs.length];
            for (int i = 0; i < queuePairs.length; i++) {
                sends[i] = queuePairs[i].sendsPosted();
                receives[i] = queuePairs[i].receivesPosted();
            }
        }

        boolean isDone() {
            for (int i = 0; i < queuePairs.length; i++) {
                if (!queuePairs[i].hasCompleted(sends[i], receives[i])) {
                    return false;
                }
            }
            return true;
        }
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
        ensureOpen();
        final VerbsAddress local = VerbsAddress.parse(address);
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment id = createId(call, capture);
            int rc = VerbsLibrary.integer(lib.bindAddr, capture, id, local.toSockaddr(call));
            if (rc != 0) {
                final int errno = NativeCall.errno(capture);
                destroyId(id);
                throw new RdmaException("cannot listen at " + address + ": rdma_bind_addr failed with "
                    + Errno.name(errno) + (errno == 98 ? " (the port is taken)" : errno == 99 || errno == Errno.ENODEV
                    ? " (no RDMA device serves that IP address; use the address of the interface under " + name()
                    + ")" : ""));
            }
            rc = VerbsLibrary.integer(lib.listen, capture, id, 128);
            if (rc != 0) {
                final int errno = NativeCall.errno(capture);
                destroyId(id);
                throw new RdmaException("cannot listen at " + address + ": rdma_listen failed with "
                    + Errno.name(errno));
            }
            final int boundPort = Short.toUnsignedInt(Short.reverseBytes((short) VerbsLibrary.plain(lib.getSrcPort, id)));
            final VerbsListener listener = new VerbsListener(this, id, local.host() + ":" + boundPort);
            listeners.put(id.address(), listener);
            return listener;
        }
    }

    void destroyListener(final VerbsListener listener) {
        listeners.remove(listener.cmId().address());
        destroyId(listener.cmId());
    }

    @Override
    public QueuePair connect(final String address, final QueuePairOptions options,
                             final java.util.function.Function<? super QueuePair, byte[]> request,
                             final Duration timeout) {
        ensureOpen();
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
                        + "network interface or IPoIB interface), reachable from " + name());
                }
                final long verbs = id.get(ADDRESS, VerbsLayouts.CM_ID_VERBS).address();
                if (verbs != context.address()) {
                    throw new RdmaException("cannot connect to " + address + " from " + name() + ": the route to it "
                        + "leaves through another RDMA device; open that device (DeviceOptions.deviceName)");
                }
                check(VerbsLibrary.integer(lib.resolveRoute, capture, id, millis(deadline, RESOLVE_TIMEOUT)), capture,
                    "rdma_resolve_route", address);
                answer = await(answers, deadline, address, "route resolution");
                if (answer.type() != CmEvent.ROUTE_RESOLVED) {
                    throw new RdmaException("cannot connect to " + address + ": no route to it (" + answer + ")");
                }
                queuePair = createQueuePair(id, options, target.toString());
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
        param.set(ADDRESS, 0, data);
        param.set(JAVA_BYTE, 8, (byte) framed.length);
        param.set(JAVA_BYTE, 9, (byte) readAtoms);
        param.set(JAVA_BYTE, 10, (byte) readAtoms);
        param.set(JAVA_BYTE, 12, (byte) 7);
        param.set(JAVA_BYTE, 13, (byte) rnrRetries);
        return param;
    }

    /** @return a GID of a connection identifier's route ({@link VerbsLayouts#CM_ID_SGID} or {@code CM_ID_DGID}) */
    static byte[] gid(final MemorySegment id, final long offset) {
        return id.asSlice(offset, 16).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    QueuePair accept(final long idAddress, final QueuePairOptions options,
                     final java.util.function.Function<? super QueuePair, byte[]> answerOf, final byte[] peerData,
                     final String peer, final int peerQpNumber) {
        ensureOpen();
        final MemorySegment id = MemorySegment.ofAddress(idAddress).reinterpret(VerbsLayouts.RDMA_CM_ID.byteSize());
        final BlockingQueue<CmEvent> answers = new LinkedBlockingQueue<>();
        waiters.put(idAddress, answers);
        VerbsQueuePair queuePair = null;
        boolean connected = false;
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            queuePair = createQueuePair(id, options, peer);
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

    private void destroyId(final MemorySegment id) {
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            if (VerbsLibrary.integer(lib.destroyId, capture, id) != 0 && LOG.isDebugEnabled()) {
                LOG.debug("rdma_destroy_id failed with {}", Errno.name(NativeCall.errno(capture)));
            }
        }
    }

    private VerbsQueuePair createQueuePair(final MemorySegment id, final QueuePairOptions options,
                                           final String peer) {
        if (!(options.sendQueue() instanceof VerbsCompletionQueue send) || !(options.receiveQueue()
            instanceof VerbsCompletionQueue receive)) {
            throw new IllegalArgumentException("a verbs queue pair needs completion queues of the verbs provider");
        }
        final long idContext = id.get(ADDRESS, VerbsLayouts.CM_ID_VERBS).address();
        if (idContext != context.address()) {
            throw new RdmaException("the connection to " + peer + " runs through another RDMA device context (0x"
                + Long.toHexString(idContext) + ") than " + name() + "'s (0x" + Long.toHexString(context.address())
                + "); open the device that serves that address (DeviceOptions.deviceName)");
        }
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            final MemorySegment attr = call.allocate(VerbsLayouts.IBV_QP_INIT_ATTR);
            attr.fill((byte) 0);
            attr.set(ADDRESS, 8, send.cq());
            attr.set(ADDRESS, 16, receive.cq());
            final long cap = VerbsLayouts.offset(VerbsLayouts.IBV_QP_INIT_ATTR, "cap.max_send_wr");
            attr.set(JAVA_INT, cap, options.sendDepth());
            attr.set(JAVA_INT, cap + 4, options.receiveDepth());
            attr.set(JAVA_INT, cap + 8, options.maxSendSge());
            attr.set(JAVA_INT, cap + 12, options.maxReceiveSge());
            attr.set(JAVA_INT, cap + 16, options.maxInlineData());
            attr.set(JAVA_INT, VerbsLayouts.offset(VerbsLayouts.IBV_QP_INIT_ATTR, "qp_type"), IBV_QPT_RC);
            attr.set(JAVA_INT, VerbsLayouts.offset(VerbsLayouts.IBV_QP_INIT_ATTR, "sq_sig_all"),
                options.signalAll() ? 1 : 0);
            final VerbsProtectionDomain domain = domainOf(options);
            if (VerbsLibrary.integer(lib.createQp, capture, id, domain == null ? pd : domain.pd(), attr) != 0) {
                throw new RdmaException("creating a queue pair on " + name() + " failed with "
                    + Errno.name(NativeCall.errno(capture)) + " for " + options + "; the device allows depth "
                    + info.maxQueuePairDepth() + " and " + info.maxSge() + " gather/scatter entries");
            }
            final MemorySegment qp = id.get(ADDRESS, VerbsLayouts.CM_ID_QP).reinterpret(VerbsLayouts.IBV_QP.byteSize());
            final int slot = claimSlot();
            final VerbsQueuePair queuePair = new VerbsQueuePair(this, id, qp, slot, attr.get(JAVA_INT, cap),
                attr.get(JAVA_INT, cap + 4), Math.max(options.maxSendSge(), attr.get(JAVA_INT, cap + 8)),
                Math.max(options.maxReceiveSge(), attr.get(JAVA_INT, cap + 12)), attr.get(JAVA_INT, cap + 16), peer,
                receive);
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
        throw new RdmaException("device " + name() + " has " + SLOTS + " queue pairs open, the most one device "
            + "handle serves; close some or open another device handle");
    }

    VerbsQueuePair queuePairInSlot(final int slot) {
        return slot < SLOTS ? slots.get(slot) : null;
    }

    void disconnect(final VerbsQueuePair queuePair) {
        try (Arena call = Arena.ofConfined()) {
            final MemorySegment capture = NativeCall.captureSegment(call);
            if (VerbsLibrary.integer(lib.disconnect, capture, queuePair.cmId()) != 0 && LOG.isDebugEnabled()) {
                LOG.debug("rdma_disconnect failed with {}", Errno.name(NativeCall.errno(capture)));
            }
        }
    }

    void destroyQueuePair(final VerbsQueuePair queuePair) {
        slots.compareAndSet(queuePair.slot(), queuePair, null);
        queuePairsByCmId.remove(queuePair.cmId().address());
        VerbsLibrary.plain(lib.destroyQp, queuePair.cmId());
        destroyId(queuePair.cmId());
        retryDeregistrations();
        if (queuePair.domain() != null) {
            queuePair.domain().release();
        }
    }

    // ------------------------------------------------------------------------------------------------ events

    void report(final ConnectionEvent event) {
        events.add(event);
    }

    @Override
    public int pollEvents(final ConnectionEventHandler handler, final int limit) {
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
        final VerbsQueuePair queuePair = queuePairsByCmId.get(event.id());
        if (queuePair != null && (event.type() == CmEvent.DISCONNECTED || event.type() == CmEvent.DEVICE_REMOVAL)) {
            if (event.type() == CmEvent.DISCONNECTED) {
                queuePair.onDisconnected();
            } else {
                queuePair.enterError("the RDMA device " + name() + " was removed", ConnectionEvent.Type.PEER_LOST);
            }
        }
        final BlockingQueue<CmEvent> waiter = waiters.get(event.id());
        if (waiter != null) {
            waiter.add(event);
        }
    }

    /** On the event thread, after each wake-up. */
    void onEventThreadTick() {
        final long now = System.nanoTime();
        for (final VerbsQueuePair queuePair : queuePairsByCmId.values()) {
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

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the verbs device " + name() + " is closed");
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (final VerbsListener listener : List.copyOf(listeners.values())) {
            listener.close();
        }
        for (int i = 0; i < SLOTS; i++) {
            final VerbsQueuePair queuePair = slots.get(i);
            if (queuePair != null) {
                queuePair.close();
            }
        }
        final List<VerbsCompletionQueue> queues;
        synchronized (completionQueues) {
            queues = List.copyOf(completionQueues);
        }
        queues.forEach(VerbsCompletionQueue::close);
        synchronized (registrationLock) {
            pending.clear();
            pendingCount = 0;
            for (final VerbsMemoryRegion region : List.copyOf(regions)) {
                deregister(region);
            }
        }
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
