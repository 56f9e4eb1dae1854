package io.rdmareactive.provider.shm;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.MemoryRegion;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.AtomicBuffer;

/**
 * A registration on the shared-memory device: an entry of the {@link RegionTable} plus a lease on the memory.
 *
 * <p>Receives posted on the region count as outstanding work; {@link #close()} only asks for deregistration, which
 * happens once that count drops to zero (the completions were polled, or the queue pairs closed). Then the table
 * entry is retired (so every key dies), and the lease released (so the memory may be freed).
 */
final class ShmMemoryRegion implements MemoryRegion {

    private final ShmDevice device;
    private final int index;
    private final int generation;
    private final int access;
    private final OffHeapMemory memory;
    private final OffHeapMemory.Lease lease;
    private final boolean ownsMemory;
    /** The protection domain it is registered in (0: the device's own). */
    private final int domain;
    private final AtomicLong outstanding = new AtomicLong();
    private final AtomicBoolean deregistered = new AtomicBoolean();
    private volatile boolean closeRequested;

    ShmMemoryRegion(final ShmDevice device, final int index, final int generation, final int access,
                    final OffHeapMemory memory, final OffHeapMemory.Lease lease, final boolean ownsMemory,
                    final int domain) {
        this.device = device;
        this.domain = domain;
        this.index = index;
        this.generation = generation;
        this.access = access;
        this.memory = memory;
        this.lease = lease;
        this.ownsMemory = ownsMemory;
    }

    int index() {
        return index;
    }

    int domain() {
        return domain;
    }

    @Override
    public OffHeapMemory memory() {
        return memory;
    }

    MemorySegment segment() {
        return memory.segment();
    }

    boolean isShareable() {
        return memory.file().isPresent();
    }

    /** @return true if {@code lkey} is this registration's and {@code [address, address + length)} lies inside it */
    boolean holds(final int lkey, final long address, final long length) {
        final long base = memory.address();
        return lkey == lkey() && !deregistered.get() && length >= 0 && address >= base
            && address - base <= memory.length() - length;
    }

    void addOutstanding() {
        outstanding.incrementAndGet();
    }

    void completeOutstanding() {
        if (outstanding.decrementAndGet() == 0 && closeRequested) {
            deregister();
        }
    }

    @Override
    public long address() {
        return memory.address();
    }

    @Override
    public long length() {
        return memory.length();
    }

    @Override
    public int lkey() {
        return RegionTable.localKey(index, generation);
    }

    @Override
    public int rkey() {
        return RegionTable.remoteKey(index, generation);
    }

    @Override
    public int access() {
        return access;
    }

    @Override
    public AtomicBuffer buffer() {
        return memory.buffer();
    }

    @Override
    public boolean isRegistered() {
        return !deregistered.get();
    }

    @Override
    public void close() {
        closeRequested = true;
        if (outstanding.get() == 0) {
            deregister();
        }
    }

    /** Deregisters now, whatever is outstanding: the device is closing. */
    void forceDeregister() {
        closeRequested = true;
        deregister();
    }

    private void deregister() {
        if (deregistered.compareAndSet(false, true)) {
            try {
                lease.close();
                if (ownsMemory) {
                    memory.close(); // unmaps and unlinks the region's file
                }
            } finally {
                // only now may the table index, and with it the file name, go to a new region
                device.retire(this);
            }
        }
    }

    @Override
    public String toString() {
        return "ShmMemoryRegion{index=" + index + ", address=0x" + Long.toHexString(address()) + ", length="
            + length() + ", access=" + Access.toString(access) + ", lkey=0x" + Integer.toHexString(lkey())
            + ", rkey=0x" + Integer.toHexString(rkey()) + (isRegistered() ? "" : ", deregistered") + '}';
    }
}
