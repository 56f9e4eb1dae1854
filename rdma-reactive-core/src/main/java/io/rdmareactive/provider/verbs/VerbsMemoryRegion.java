package io.rdmareactive.provider.verbs;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.MemoryRegion;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A registration ({@code ibv_reg_mr}) of page-aligned memory the region holds a lease on. Closing asks for
 * deregistration; the device deregisters once every queue pair that referenced the region in a work request has
 * completed the work it had posted when close was asked for (or has been destroyed), and only then releases the lease,
 * so the memory is freed after it is deregistered and never while the adapter may still touch it.
 *
 * <p>Which queue pairs referenced the region is learned at post time, from the lkeys of the gather/scatter entries:
 * the first post of a queue pair with a region adds the queue pair to the region's users (a one-time allocation);
 * later posts only compare a field.
 */
final class VerbsMemoryRegion implements MemoryRegion {

    private final VerbsDevice device;
    /** The domain it is registered in, or null for the device's own. */
    private final VerbsProtectionDomain domain;
    private final OffHeapMemory.Lease lease;
    private final OffHeapMemory owned;
    private final MemorySegment mr;
    private final long address;
    private final long length;
    private final int lkey;
    private final int rkey;
    private final int access;
    private final AtomicBuffer buffer;
    private final List<VerbsQueuePair> users = new CopyOnWriteArrayList<>();
    private VerbsQueuePair lastUser;
    private volatile boolean registered = true;
    private volatile boolean closeRequested;

    VerbsMemoryRegion(final VerbsDevice device, final OffHeapMemory.Lease lease, final OffHeapMemory owned,
                      final MemorySegment mr, final int access, final VerbsProtectionDomain domain) {
        this.device = device;
        this.domain = domain;
        this.lease = lease;
        this.owned = owned;
        this.mr = mr;
        final OffHeapMemory memory = lease.memory();
        this.address = memory.address();
        this.length = memory.length();
        this.lkey = mr.get(java.lang.foreign.ValueLayout.JAVA_INT, VerbsLayouts.MR_LKEY);
        this.rkey = mr.get(java.lang.foreign.ValueLayout.JAVA_INT, VerbsLayouts.MR_RKEY);
        this.access = access;
        this.buffer = new UnsafeBuffer(address, (int) Math.min(length, Integer.MAX_VALUE));
    }

    /** Called on the posting thread for each gather/scatter entry naming this region. */
    void usedBy(final VerbsQueuePair queuePair) {
        if (lastUser != queuePair) {
            lastUser = queuePair;
            if (!users.contains(queuePair)) {
                users.add(queuePair);
            }
        }
    }

    List<VerbsQueuePair> users() {
        return users;
    }

    VerbsProtectionDomain domain() {
        return domain;
    }

    @Override
    public OffHeapMemory memory() {
        return lease.memory();
    }

    MemorySegment mr() {
        return mr;
    }

    /** Marks the region deregistered and releases its memory; the device has called {@code ibv_dereg_mr}. */
    void deregistered() {
        registered = false;
        lease.close();
        if (owned != null) {
            owned.close();
        }
    }

    boolean isCloseRequested() {
        return closeRequested;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int lkey() {
        return lkey;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public int access() {
        return access;
    }

    @Override
    public AtomicBuffer buffer() {
        return buffer;
    }

    @Override
    public boolean isRegistered() {
        return registered;
    }

    @Override
    public void close() {
        if (closeRequested) {
            return;
        }
        synchronized (this) {
            if (closeRequested) {
                return;
            }
            closeRequested = true;
        }
        device.registrations().requestDeregistration(this);
    }

    @Override
    public String toString() {
        return "VerbsMemoryRegion{address=0x" + Long.toHexString(address) + ", length=" + length + ", lkey=0x"
            + Integer.toHexString(lkey) + ", rkey=0x" + Integer.toHexString(rkey) + ", registered=" + registered + '}';
    }
}
