package io.rdmareactive.provider.verbs;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.ring.PageSize;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.DeviceLimits;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.RdmaException;
import io.rdmareactive.spi.RegistrationLimitException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.collections.Int2ObjectHashMap;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * The memory registration of a {@link VerbsDevice}: registers memory ({@code ibv_reg_mr}) within the device's limit
 * and the locked-memory limit, finds a region by its lkey for the posting thread (a copy-on-write map, read without a
 * lock), and deregisters a closed region once the work its queue pairs had posted on it is complete.
 */
final class VerbsRegistrations {

    /** The device's logger: the provider's messages keep the one name the logging guide gives. */
    private static final Logger LOG = Loggers.getLogger(VerbsDevice.class);
    private static final int RLIMIT_MEMLOCK = 8;

    private final VerbsDevice device;
    private final VerbsLibrary lib;
    /** The device's own protection domain. */
    private final MemorySegment pd;
    private final DeviceLimits limits;
    private final long memlockLimit;
    private final AtomicLong registeredBytes = new AtomicLong();
    private final Object registrationLock = new Object();
    private final List<VerbsMemoryRegion> regions = new ArrayList<>();
    private volatile Int2ObjectHashMap<VerbsMemoryRegion> regionsByLkey = new Int2ObjectHashMap<>();
    private final List<PendingDeregistration> pending = new ArrayList<>();
    private volatile int pendingCount;

    VerbsRegistrations(final VerbsDevice device, final VerbsLibrary lib, final MemorySegment pd,
                       final DeviceLimits limits, final long memlockLimit) {
        this.device = device;
        this.lib = lib;
        this.pd = pd;
        this.limits = limits;
        this.memlockLimit = memlockLimit;
    }

    /** @return the bytes this process may lock ({@code RLIMIT_MEMLOCK}), or {@link DeviceOptions#UNLIMITED} */
    static long lockedMemoryLimit(final VerbsLibrary lib, final Arena call, final MemorySegment capture) {
        if (hasIpcLockCapability()) {
            return DeviceOptions.UNLIMITED;
        }
        final MemorySegment limit = call.allocate(VerbsLayouts.RLIMIT);
        if (VerbsLibrary.integer(lib.getrlimit, capture, RLIMIT_MEMLOCK, limit) != 0) {
            return DeviceOptions.UNLIMITED;
        }
        final long current = limit.get(JAVA_LONG, VerbsLayouts.RLIMIT_CUR);
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

    /** Allocates page-aligned memory and registers it; the region owns the memory. */
    MemoryRegion allocate(final VerbsProtectionDomain domain, final long length, final int access) {
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

    /**
     * Registers memory in a domain (null: the device's own).
     *
     * @param owned true if the region owns the memory and frees it when deregistered
     */
    MemoryRegion register(final VerbsProtectionDomain domain, final OffHeapMemory memory, final int access,
                          final boolean owned) {
        Access.validate(access);
        device.ensureOpen();
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
                    throw new RegistrationLimitException("registering " + length + " bytes on " + device.name()
                        + " failed with " + Errno.name(errno) + ": the locked-memory limit is too low ("
                        + describeMemlock() + "; " + registeredBytes.get() + " bytes registered by this device); "
                        + "raise it: 'ulimit -l unlimited' in the shell, LimitMEMLOCK=infinity for a systemd service, "
                        + "'--ulimit memlock=-1' for a container");
                }
                throw new RdmaException("registering " + length + " bytes at 0x" + Long.toHexString(memory.address())
                    + " on " + device.name() + " failed with " + Errno.name(errno));
            }
            final VerbsMemoryRegion region = new VerbsMemoryRegion(device, lease, owned ? memory : null,
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
            throw new RegistrationLimitException("registering " + length + " more bytes on " + device.name()
                + " would pass its limit of " + limits.maxRegisteredBytes() + " bytes (" + registeredBytes.get()
                + " registered; "
                + (limits.maxRegisteredBytes() == memlockLimit ? describeMemlock() + "; raise it with 'ulimit -l "
                + "unlimited', LimitMEMLOCK=infinity for a systemd service, '--ulimit memlock=-1' for a container"
                : "the limit set in DeviceOptions.maxRegisteredBytes") + ")");
        }
    }

    private String describeMemlock() {
        return memlockLimit == DeviceOptions.UNLIMITED ? "locked memory is unlimited for this process"
            : "ulimit -l is " + memlockLimit / 1024 + " KiB";
    }

    /** @return the bytes registered and not yet deregistered */
    long registeredBytes() {
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

    /** The device closes: deregisters every region, whatever work is pending on it. */
    void deregisterAll() {
        synchronized (registrationLock) {
            pending.clear();
            pendingCount = 0;
            for (final VerbsMemoryRegion region : List.copyOf(regions)) {
                deregister(region);
            }
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
}
