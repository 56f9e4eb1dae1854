package io.rdmareactive.provider.shm;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.ProtectionDomain;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A protection domain of a shared-memory device: a number, unique for the device's life, written into each region's
 * table entry and each queue pair's file. A peer's work request that names a region of another domain than the queue
 * pair it arrives through is refused with a remote access error, and a local gather or scatter entry of another
 * domain with a local protection error, as an adapter checks them. Nothing to release: the number is never reused.
 */
final class ShmProtectionDomain implements ProtectionDomain {

    private final ShmDevice device;
    private final int id;
    private final AtomicBoolean closed = new AtomicBoolean();

    ShmProtectionDomain(final ShmDevice device, final int id) {
        this.device = device;
        this.id = id;
    }

    int id() {
        return id;
    }

    ShmDevice device() {
        return device;
    }

    @Override
    public MemoryRegion allocateRegion(final long length, final int access) {
        checkOpen();
        return device.allocateRegion(id, length, access);
    }

    @Override
    public MemoryRegion register(final OffHeapMemory memory, final int access) {
        checkOpen();
        return device.register(id, memory, access);
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("protection domain " + id + " of " + device.name() + " is closed");
        }
    }

    @Override
    public void close() {
        closed.set(true);
    }

    @Override
    public String toString() {
        return "ShmProtectionDomain{" + id + " of " + device.name() + '}';
    }
}
