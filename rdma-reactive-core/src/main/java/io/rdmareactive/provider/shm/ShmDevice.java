package io.rdmareactive.provider.shm;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.ring.PageSize;
import io.rdmareactive.ring.PrivateDirectory;
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
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * This process's endpoint on the shared-memory provider: a region table, completion queues, queue pairs and
 * listeners, all as files in one directory, and a connection-manager thread.
 */
final class ShmDevice implements RdmaDevice {

    static final int MAX_PRIVATE_DATA = 56;
    static final int MAX_REJECT_PRIVATE_DATA = 148;
    static final int MAX_QUEUE_PAIRS = 4096;
    static final int MAX_DEPTH = 1 << 16;
    static final int MAX_SGE = 16;
    static final int MAX_INLINE = 1024;
    static final int MAX_CQ_CAPACITY = 1 << 20;
    static final int EVENT_CAPACITY = 4096;

    private static final Logger LOG = Loggers.getLogger(ShmDevice.class);

    private final String id;
    private final String name;
    private final ShmDirectory directory;
    private final ShmDirectory.Liveness liveness;
    private final OffHeapMemory tableMemory;
    private final RegionTable table;
    /** The last protection domain number handed out; 0 is the device's own. */
    private final java.util.concurrent.atomic.AtomicInteger nextDomain = new java.util.concurrent.atomic.AtomicInteger();
    private final long maxRegisteredBytes;
    /** Whether it offers direct peer access ({@link ShmProvider#DIRECT_PEER_ACCESS_PROPERTY}). */
    private final boolean directPeerAccess;
    private final DeviceLimits limits;
    private final ConnectionMonitor monitor;
    private final AtomicReferenceArray<ShmMemoryRegion> regions = new AtomicReferenceArray<>(RegionTable.ENTRIES);
    private final AtomicReferenceArray<ShmQueuePair> queuePairs = new AtomicReferenceArray<>(MAX_QUEUE_PAIRS);
    private final AtomicIntegerArray queuePairSlots = new AtomicIntegerArray(MAX_QUEUE_PAIRS);
    private final List<ShmCompletionQueue> completionQueues = new ArrayList<>();
    private final List<ShmListener> listeners = new ArrayList<>();
    private final ManyToOneConcurrentArrayQueue<ConnectionEvent> events =
        new ManyToOneConcurrentArrayQueue<>(EVENT_CAPACITY);
    private final AtomicLong registeredBytes = new AtomicLong();
    private final AtomicInteger nextQueuePair = new AtomicInteger(1);
    private final AtomicInteger nextCompletionQueue = new AtomicInteger(1);
    private final AtomicBoolean closed = new AtomicBoolean();

    private ShmDevice(final String id, final String name, final ShmDirectory directory,
                      final ShmDirectory.Liveness liveness, final OffHeapMemory tableMemory,
                      final long maxRegisteredBytes, final boolean directPeerAccess) {
        this.id = id;
        this.directPeerAccess = directPeerAccess;
        this.liveness = liveness;
        this.name = name;
        this.directory = directory;
        this.tableMemory = tableMemory;
        this.table = new RegionTable(tableMemory.buffer());
        this.table.initialise();
        this.maxRegisteredBytes = maxRegisteredBytes;
        this.limits = new DeviceLimits(MAX_SGE, MAX_INLINE, MAX_DEPTH, MAX_CQ_CAPACITY, Integer.MAX_VALUE,
            maxRegisteredBytes, MAX_PRIVATE_DATA, MAX_REJECT_PRIVATE_DATA);
        this.monitor = new ConnectionMonitor(id);
    }

    static ShmDevice open(final DeviceOptions options) {
        final ShmDirectory directory = ShmDirectory.open(options.directory().orElseGet(PrivateDirectory::defaultPath));
        directory.removeFilesOfDeadProcesses();
        final String id = ProcessHandle.current().pid() + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt()
            | 0x1000_0000);
        final ShmDirectory.Liveness liveness = directory.claimLiveness(id);
        final OffHeapMemory table;
        try {
            table = directory.createFile(directory.regionTable(id), PageSize.roundUp(RegionTable.LENGTH),
                "the device's region table");
        } catch (final RuntimeException ex) {
            liveness.close();
            throw ex;
        }
        try {
            return new ShmDevice(id, options.deviceName().orElse("shm0"), directory, liveness, table,
                options.maxRegisteredBytes(),
                !"false".equals(options.property(ShmProvider.DIRECT_PEER_ACCESS_PROPERTY).orElse("true")));
        } catch (final RuntimeException ex) {
            table.close();
            liveness.close();
            throw ex;
        }
    }

    String id() {
        return id;
    }

    ShmDirectory directory() {
        return directory;
    }

    ConnectionMonitor monitor() {
        return monitor;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String providerName() {
        return ShmProvider.NAME;
    }

    @Override
    public Set<DeviceCapability> capabilities() {
        final Set<DeviceCapability> capabilities = EnumSet.of(DeviceCapability.RDMA_READ, DeviceCapability.ATOMICS,
            DeviceCapability.WRITE_WITH_IMMEDIATE, DeviceCapability.SEND_RECEIVE, DeviceCapability.SCATTER_GATHER,
            DeviceCapability.INLINE_DATA);
        if (directPeerAccess) {
            capabilities.add(DeviceCapability.DIRECT_PEER_ACCESS);
        }
        return capabilities;
    }

    @Override
    public DeviceLimits limits() {
        return limits;
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new RdmaException("the shared-memory device " + name + " is closed");
        }
    }

    // ------------------------------------------------------------------------------------------------ memory

    @Override
    public ProtectionDomain allocateProtectionDomain() {
        checkOpen();
        return new ShmProtectionDomain(this, nextDomain.incrementAndGet());
    }

    /** @return the domain number the options name: 0 for the device's own */
    int domainOf(final QueuePairOptions options) {
        final ProtectionDomain domain = options.protectionDomain();
        if (domain == null) {
            return 0;
        }
        if (!(domain instanceof ShmProtectionDomain shm) || shm.device() != this) {
            throw new IllegalArgumentException("the queue pair's protection domain is not one of " + name
                + ": allocate it with this device's allocateProtectionDomain()");
        }
        return shm.id();
    }

    @Override
    public MemoryRegion allocateRegion(final long length, final int access) {
        return allocateRegion(0, length, access);
    }

    MemoryRegion allocateRegion(final int domain, final long length, final int access) {
        checkOpen();
        PageSize.checkPageMultiple(length, "region length");
        Access.validate(access);
        reserve(length);
        final int index = freeRegionIndex(length);
        final OffHeapMemory memory;
        try {
            memory = directory.createFile(directory.region(id, index), length, "a region of " + length + " bytes");
        } catch (final RuntimeException ex) {
            regions.set(index, null);
            registeredBytes.addAndGet(-length);
            if (ex instanceof RdmaException) {
                throw ex;
            }
            throw new RdmaException("cannot allocate a region of " + length + " bytes in " + directory.path() + ": "
                + ex.getMessage(), ex);
        }
        return publish(index, access, memory, true, domain);
    }

    @Override
    public MemoryRegion register(final OffHeapMemory memory, final int access) {
        return register(0, memory, access);
    }

    MemoryRegion register(final int domain, final OffHeapMemory memory, final int access) {
        checkOpen();
        Access.validate(access);
        if ((access & (Access.REMOTE_WRITE | Access.REMOTE_READ)) != 0
            && memory.file().map(file -> !directory.holds(file)).orElse(true)) {
            throw new RdmaException("the shm provider gives peers access only to memory mapped from a file in its "
                + "directory " + directory.path() + ", and this memory is " + memory.file().map(f -> "mapped from " + f)
                .orElse("not mapped from a file") + ": allocate it with RdmaDevice.allocateRegion(...), or map it with "
                + "OffHeapMemory.mapFile(...) from a file in that directory");
        }
        reserve(memory.length());
        final int index = freeRegionIndex(memory.length());
        return publish(index, access, memory, false, domain);
    }

    private void reserve(final long length) {
        final long after = registeredBytes.addAndGet(length);
        if (after > maxRegisteredBytes || after < 0) {
            registeredBytes.addAndGet(-length);
            throw new RegistrationLimitException("registering " + length + " more bytes would bring this device to "
                + after + ", over its limit of " + maxRegisteredBytes + " registered bytes; raise the limit "
                + "(DeviceOptions.maxRegisteredBytes; on verbs the locked-memory limit: 'ulimit -l' or systemd's "
                + "LimitMEMLOCK) or register less");
        }
    }

    /** Claims a free table index by parking a placeholder; the caller publishes or clears it. */
    private int freeRegionIndex(final long length) {
        for (int index = 1; index < RegionTable.ENTRIES; index++) {
            if (regions.get(index) == null && regions.compareAndSet(index, null, RESERVED)) {
                return index;
            }
        }
        registeredBytes.addAndGet(-length);
        throw new RegistrationLimitException("this device has " + (RegionTable.ENTRIES - 1) + " regions registered, the "
            + "most it can hold; deregister some, or register fewer and larger regions");
    }

    /** Parks a table index between its claim and its publication. */
    private static final ShmMemoryRegion RESERVED = new ShmMemoryRegion(null, 0, 0, 0, null, null, false, 0);

    private ShmMemoryRegion publish(final int index, final int access, final OffHeapMemory memory,
                                    final boolean ownsMemory, final int domain) {
        OffHeapMemory.Lease lease = null;
        try {
            lease = memory.acquire();
            final int generation = table.publish(index, access, memory.address(), memory.length(),
                memory.file().map(Path::toString).orElse(null), domain);
            final ShmMemoryRegion region = new ShmMemoryRegion(this, index, generation, access, memory, lease,
                ownsMemory, domain);
            regions.set(index, region);
            return region;
        } catch (final RuntimeException ex) {
            if (lease != null) {
                lease.close();
            }
            if (ownsMemory) {
                memory.close();
            }
            regions.set(index, null);
            registeredBytes.addAndGet(-memory.length());
            throw ex;
        }
    }

    /** Called by a region once it deregisters. */
    void retire(final ShmMemoryRegion region) {
        table.retire(region.index());
        regions.compareAndSet(region.index(), region, null);
        registeredBytes.addAndGet(-region.length());
    }

    /** @return the registered region a local key names, or null (hot path: no allocation) */
    ShmMemoryRegion localRegion(final int lkey) {
        if (RegionTable.isRemoteKey(lkey)) {
            return null;
        }
        final ShmMemoryRegion region = regions.get(RegionTable.indexOf(lkey));
        return region == RESERVED ? null : region;
    }

    @Override
    public long registeredBytes() {
        return registeredBytes.get();
    }

    // ------------------------------------------------------------------------------------------------ queues

    @Override
    public CompletionQueue createCompletionQueue(final int capacity) {
        checkOpen();
        if (capacity <= 0 || capacity > MAX_CQ_CAPACITY) {
            throw new IllegalArgumentException("completion queue capacity must be 1 to " + MAX_CQ_CAPACITY + ": "
                + capacity);
        }
        final int cqId = nextCompletionQueue.getAndIncrement();
        final long length = PageSize.roundUp(CompletionRing.fileLength(capacity));
        final OffHeapMemory memory = directory.createFile(directory.completionQueue(id, cqId), length,
            "a completion queue of " + capacity + " completions");
        final ShmCompletionQueue queue = new ShmCompletionQueue(this, cqId, capacity, memory);
        synchronized (completionQueues) {
            completionQueues.add(queue);
        }
        return queue;
    }

    void forget(final ShmCompletionQueue queue) {
        synchronized (completionQueues) {
            completionQueues.remove(queue);
        }
    }

    ShmQueuePair createQueuePair(final QueuePairOptions options) {
        checkOpen();
        if (!(options.sendQueue() instanceof ShmCompletionQueue send) || send.isClosed()
            || !(options.receiveQueue() instanceof ShmCompletionQueue receive) || receive.isClosed()) {
            throw new IllegalArgumentException("a queue pair needs open completion queues of this shared-memory device");
        }
        if (options.receiveDepth() > MAX_DEPTH || options.sendDepth() > MAX_DEPTH) {
            throw new IllegalArgumentException("queue depths must be at most " + MAX_DEPTH + ": " + options);
        }
        if (options.maxSendSge() > MAX_SGE || options.maxReceiveSge() > MAX_SGE) {
            throw new IllegalArgumentException("at most " + MAX_SGE + " gather/scatter entries: " + options);
        }
        if (options.maxInlineData() > MAX_INLINE) {
            throw new IllegalArgumentException("at most " + MAX_INLINE + " bytes of inline data: " + options);
        }
        int number;
        int slot;
        int attempts = 0;
        do {
            if (++attempts > MAX_QUEUE_PAIRS) {
                throw new RdmaException("this device has " + MAX_QUEUE_PAIRS + " queue pairs, the most it can hold; "
                    + "close some first");
            }
            number = nextQueuePair.getAndIncrement() & 0x00FF_FFFF;
            slot = number & (MAX_QUEUE_PAIRS - 1);
        } while (number == 0 || !queuePairSlots.compareAndSet(slot, 0, 1));
        final long length = PageSize.roundUp(QueuePairFile.fileLength(options.receiveDepth(), options.maxReceiveSge()));
        try {
            final OffHeapMemory memory = directory.createFile(directory.queuePair(id, number), length,
                "a queue pair");
            final ShmQueuePair queuePair = new ShmQueuePair(this, number, memory, options, send, receive);
            queuePairs.set(slot, queuePair);
            return queuePair;
        } catch (final RuntimeException ex) {
            queuePairSlots.set(slot, 0);
            if (ex instanceof RdmaException) {
                throw ex;
            }
            throw new RdmaException("cannot create a queue pair in " + directory.path() + ": " + ex.getMessage(), ex);
        }
    }

    void forget(final ShmQueuePair queuePair) {
        final int slot = queuePair.number() & (MAX_QUEUE_PAIRS - 1);
        if (queuePairs.compareAndSet(slot, queuePair, null)) {
            queuePairSlots.set(slot, 0);
        }
    }

    /**
     * A completion was polled: a receive releases what it held, a send frees its send-queue slot (hot path).
     *
     * @param tag the receive queue slot, or the send request's sequence
     */
    void onCompleted(final int qpNumber, final boolean receive, final int tag) {
        final ShmQueuePair queuePair = queuePairs.get(qpNumber & (MAX_QUEUE_PAIRS - 1));
        if (queuePair != null && queuePair.number() == qpNumber) {
            if (receive) {
                queuePair.receiveCompleted(tag);
            } else {
                queuePair.sendCompleted(tag);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ connections

    void checkPrivateData(final byte[] privateData) {
        checkPrivateData(privateData, MAX_PRIVATE_DATA, "");
    }

    void checkRejectPrivateData(final byte[] privateData) {
        checkPrivateData(privateData, MAX_REJECT_PRIVATE_DATA, "a reject's ");
    }

    private static void checkPrivateData(final byte[] privateData, final int limit, final String whose) {
        if (privateData.length > limit) {
            throw new IllegalArgumentException(whose + "private data holds at most " + limit + " bytes (as rdma_cm "
                + "allows on verbs), not " + privateData.length + "; exchange larger data over the connection");
        }
    }

    @Override
    public Listener listen(final String address) {
        checkOpen();
        final ShmListener listener = ShmListener.open(this, address, directory.socket(address));
        synchronized (listeners) {
            listeners.add(listener);
        }
        return listener;
    }

    void forget(final ShmListener listener) {
        synchronized (listeners) {
            listeners.remove(listener);
        }
    }

    @Override
    public QueuePair connect(final String address, final QueuePairOptions options, final byte[] privateData,
                             final Duration timeout) {
        checkPrivateData(privateData); // before anything is made: an argument error, not a failed connect
        return connect(address, options, queuePair -> privateData, timeout);
    }

    @Override
    public QueuePair connect(final String address, final QueuePairOptions options,
                             final java.util.function.Function<? super QueuePair, byte[]> requestData,
                             final Duration timeout) {
        checkOpen();
        final Path socket = directory.socket(address);
        if (!Files.exists(socket)) {
            throw new RdmaException("no listener at '" + address + "': " + socket + " does not exist; start the "
                + "listening side first, and check that both sides use the same directory and name");
        }
        final ShmQueuePair queuePair = createQueuePair(options);
        CmChannel channel = null;
        try {
            try {
                channel = CmChannel.connect(socket);
            } catch (final IOException ex) {
                throw new RdmaException("no listener at '" + address + "' (" + socket + "): " + ex.getMessage()
                    + "; the listening process is gone or has closed its listener", ex);
            }
            final String otherUser = channel.otherUser();
            if (otherUser != null) {
                throw new RdmaException("refused to connect to the listener at '" + address + "': " + otherUser);
            }
            queuePair.makeReady();
            options.prepare(queuePair);
            final byte[] privateData = requestData.apply(queuePair);
            checkPrivateData(privateData);
            final ByteBuffer request = ByteBuffer.allocate(256 + privateData.length);
            request.putInt(CmChannel.MAGIC).putInt(CmChannel.VERSION).putLong(ProcessHandle.current().pid());
            CmChannel.putString(request, id);
            request.putInt(queuePair.number());
            CmChannel.putBytes(request, privateData);
            channel.send(CmChannel.CONNECT, request.flip());
            final CmChannel.Frame answer;
            try {
                answer = channel.receive(timeout);
            } catch (final IOException ex) {
                throw new RdmaException("the listener at '" + address + "' closed the connection without answering", ex);
            }
            if (answer == null) {
                throw new RdmaException("the listener at '" + address + "' did not answer within " + timeout);
            }
            final ByteBuffer payload = answer.payload();
            if (answer.type() == CmChannel.REJECT) {
                final byte[] rejectData = CmChannel.getBytes(payload);
                final String reason = payload.hasRemaining() ? CmChannel.getString(payload) : "rejected";
                throw new ConnectionRejectedException("the listener at '" + address + "' rejected the connection: "
                    + reason, rejectData);
            }
            if (answer.type() != CmChannel.ACCEPT) {
                throw new RdmaException("the listener at '" + address + "' answered with frame type " + answer.type());
            }
            final String peerId = CmChannel.getString(payload);
            final int peerQp = payload.getInt();
            final byte[] acceptData = CmChannel.getBytes(payload);
            final String description = "listener '" + address + "', device " + peerId + ", queue pair " + peerQp;
            final PeerView peer;
            try {
                peer = PeerView.attach(directory, peerId, peerQp);
            } catch (final IllegalStateException | java.io.UncheckedIOException gone) {
                if (Files.exists(directory.queuePair(peerId, peerQp))) {
                    throw gone;
                }
                // the listener accepted and closed its queue pair at once: connected, then disconnected, as on verbs
                queuePair.acceptedThenClosed(channel, description, acceptData, peerId, peerQp);
                return queuePair;
            }
            queuePair.connected(peer, channel, description, acceptData);
            monitor.watch(queuePair);
            return queuePair;
        } catch (final RuntimeException | IOException ex) {
            queuePair.close();
            if (channel != null) {
                channel.close();
            }
            if (ex instanceof RdmaException || ex instanceof IllegalArgumentException) {
                throw (RuntimeException) ex; // the request function's private data was too long
            }
            throw new RdmaException("connecting to '" + address + "' failed: " + ex.getMessage(), ex);
        }
    }

    void report(final ConnectionEvent event) {
        if (!events.offer(event)) {
            LOG.warn("connection event queue full ({}), event lost: {} on queue pair {}: {}; call pollEvents more often",
                EVENT_CAPACITY, event.type(), event.queuePair().number(), event.reason());
        }
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

    // ------------------------------------------------------------------------------------------------ close

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        final List<ShmListener> openListeners;
        synchronized (listeners) {
            openListeners = new ArrayList<>(listeners);
        }
        openListeners.forEach(ShmListener::close);
        for (int i = 0; i < queuePairs.length(); i++) {
            final ShmQueuePair queuePair = queuePairs.get(i);
            if (queuePair != null) {
                queuePair.close();
            }
        }
        monitor.close();
        final List<ShmCompletionQueue> openQueues;
        synchronized (completionQueues) {
            openQueues = new ArrayList<>(completionQueues);
        }
        openQueues.forEach(ShmCompletionQueue::close);
        for (int i = 0; i < regions.length(); i++) {
            final ShmMemoryRegion region = regions.get(i);
            if (region != null && region != RESERVED) {
                region.forceDeregister();
            }
        }
        tableMemory.close();
        liveness.close();
    }

    @Override
    public String toString() {
        return "ShmDevice{" + name + ", id=" + id + ", directory=" + directory.path() + '}';
    }
}
