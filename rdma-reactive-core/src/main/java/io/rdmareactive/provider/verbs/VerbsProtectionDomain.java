package io.rdmareactive.provider.verbs;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.ProtectionDomain;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A protection domain the device allocated ({@code ibv_alloc_pd}): the adapter lets a queue pair's work requests, and
 * its peer's, reach only memory registered in the queue pair's domain. It counts the regions and queue pairs made in
 * it and is deallocated once it was closed and the last of them is gone (ibv_dealloc_pd refuses a domain in use).
 */
final class VerbsProtectionDomain implements ProtectionDomain {

    private final VerbsDevice device;
    private final MemorySegment pd;
    private final AtomicInteger users = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean released = new AtomicBoolean();

    VerbsProtectionDomain(final VerbsDevice device, final MemorySegment pd) {
        this.device = device;
        this.pd = pd;
    }

    MemorySegment pd() {
        return pd;
    }

    VerbsDevice device() {
        return device;
    }

    @Override
    public MemoryRegion allocateRegion(final long length, final int access) {
        checkOpen();
        return device.registrations().allocate(this, length, access);
    }

    @Override
    public MemoryRegion register(final OffHeapMemory memory, final int access) {
        checkOpen();
        return device.registrations().register(this, memory, access, false);
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("this protection domain of " + device.name() + " is closed");
        }
    }

    /** A region or a queue pair was made in this domain. */
    void retain() {
        users.incrementAndGet();
    }

    /** A region was deregistered or a queue pair destroyed: the last one of a closed domain deallocates it. */
    void release() {
        if (users.decrementAndGet() == 0 && closed.get()) {
            deallocate();
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && users.get() == 0) {
            deallocate();
        }
    }

    /** Once: from the last release after close, or from the device's close. */
    void deallocate() {
        if (released.compareAndSet(false, true)) {
            device.deallocate(this);
        }
    }

    @Override
    public String toString() {
        return "VerbsProtectionDomain{" + device.name() + ", users=" + users.get() + (closed.get() ? ", closed" : "")
            + '}';
    }
}
